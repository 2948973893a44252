package io.gpurental.bench;

import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * The scale scenarios, over the fleet {@code bench/sql/seed-fleet.sql} wrote ({@code host_b1} …
 * {@code host_bN}, offers {@code off_b1} …): searches, the offer page, quotes, holds and their
 * release. Windows are hours from {@code base} (the run's hour), so the same sequence asks the
 * same thing at every fleet size.
 */
final class ScaleScenarios {
  /** The seeded future bookings end within 14 days: quotes and holds ask for windows after them. */
  private static final int FREE_FROM_HOURS = 15 * 24;
  private static final int[] GPU_COUNTS = {1, 2, 4, 8};
  /** Two concurrent holds on one host never need more than its 8 GPUs: a hold never loses a race to another. */
  private static final int[] HOLD_COUNTS = {1, 2, 4, 1};
  private static final String SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB7aGXAqXoYm8nlcZ0W1mFHjA4tVNEp6YpPJcsHYwbvV bench";
  private final int hosts;
  private final Instant base;
  /** Seeded hosts that are active with 8 healthy GPUs (seed-fleet.sql: offline and maintenance every 33rd, a degraded GPU every 50th). */
  private final int[] bookable;

  ScaleScenarios(int hosts, Instant now) {
    this.hosts = hosts;
    this.base = now.truncatedTo(ChronoUnit.HOURS);
    this.bookable = IntStream.rangeClosed(1, hosts).filter(h -> h % 33 != 5 && h % 33 != 6 && h % 50 != 7).toArray();
  }

  static MultiMap accept() {
    return MultiMap.caseInsensitiveMultiMap().add("Accept", "application/json");
  }

  /** An anonymous visitor's search, default window (now, one hour): the node's search cache answers most. */
  Scenario cachedSearch() {
    return Scenarios.of("search, default window (cached)", n -> Request.get("/api/v1/offers", accept()));
  }

  /**
   * 24 hours starting at one of 300 hours in the next two weeks, one model, a region and a price
   * cap: the window changes with each request, so the search cache rarely holds it (the lifetime is 5 s).
   */
  Scenario filteredSearch() {
    return Scenarios.of("search, random 24 h window + filters", n -> Request.get("/api/v1/offers?start="
        + hour(24 + (int) (n * 37 % 300)) + "&hours=24&gpu_model=L40S&region=us-east&max_price_per_gpu_hour=400",
        accept()));
  }

  /** A workload-driven search (the preset's defaults) in a random 24-hour window. */
  Scenario workloadSearch() {
    return Scenarios.of("search, workload (llm-inference), random window", n -> Request.get(
        "/api/v1/offers?workload=llm-inference&hours=24&start=" + hour(24 + (int) (n * 37 % 300)), accept()));
  }

  /** The offer page (offer, its 14-day timeline, its price history), tomorrow's 24 hours. */
  Scenario offerPage() {
    return Scenarios.of("offer page (with 14-day timeline)", n -> Request.get("/api/v1/offers/off_b"
        + (1 + n * 7919 % hosts) + "?hours=24&start=" + hour(24), accept()));
  }

  /** A renter's quote: 1, 2, 4 or 8 GPUs for a day, after the seeded bookings. */
  Scenario quote(String renterToken) {
    MultiMap headers = Fixtures.json(renterToken);
    return Scenarios.of("quote", n -> Request.post("/api/v1/quotes", headers, new JsonObject()
        .put("offer_id", "off_b" + bookable(n)).put("gpu_count", GPU_COUNTS[(int) (n % 4)]).put("hours", 24)
        .put("start", hour(FREE_FROM_HOURS + (int) (n % 48))).toBuffer()));
  }

  /**
   * A hold (POST /reservations by a token whose budget sends it to approval: held, unpaid, no
   * payment started) and its release (cancel), timed as one: the transaction that picks free GPUs
   * under the exclusion constraint, and the one that frees them.
   */
  Scenario holdAndRelease(List<String> tokens) {
    // API clients must send an Idempotency-Key with a booking: a new one per hold; the tokens in turn
    return Scenarios.of("hold + release", n -> Request.post("/api/v1/reservations",
        Fixtures.json(tokens.get((int) (n % tokens.size()))).add("Idempotency-Key", "bench-hold-" + UUID.randomUUID()),
        new JsonObject()
        .put("offer_id", "off_b" + bookable(n)).put("gpu_count", HOLD_COUNTS[(int) (n % 4)]).put("hours", 4)
        .put("start", hour(FREE_FROM_HOURS + 24 * 7 + (int) (n % 48))).put("ssh_public_key", SSH_KEY)
        .put("payment", "checkout").toBuffer())
        .then(held -> Request.post("/api/v1/reservations/" + held.toJsonObject().getString("id") + "/cancel",
            Fixtures.bearer(tokens.get((int) (n % tokens.size()))), null)));
  }

  /** The build's version (public, no database): compared with the liveness probe. */
  static Scenario version() {
    return Scenarios.of("version", n -> Request.get("/api/v1/version", accept()));
  }

  /** One indexed row as JSON, on the bare stack: the floor for a cached answer. */
  Scenario db() {
    return Scenarios.of("/db (one indexed row)", n -> Request.get("/db?id=off_b" + (1 + n % hosts), null));
  }

  /** Anonymous readers of public pages: none may leave a session (or anything else) behind. */
  Scenario anonymousFlood() {
    return Scenarios.of("anonymous flood (version, offer, models)", n -> switch ((int) (n % 3)) {
      case 0 -> Request.get("/api/v1/version", accept());
      case 1 -> Request.get("/api/v1/offers/off_b" + (1 + n % hosts) + "?hours=1", accept());
      default -> Request.get("/api/v1/gpu-models", accept());
    });
  }

  /** The pgbench hold's window: its first hour (epoch seconds), after the gateway's holds'. */
  long pgbenchBaseEpoch() {
    return base.plusSeconds(3600L * (FREE_FROM_HOURS + 24 * 10)).getEpochSecond();
  }

  private int bookable(long n) {
    return bookable[(int) (n % bookable.length)];
  }

  private String hour(int hoursFromBase) {
    return base.plus(hoursFromBase, ChronoUnit.HOURS).toString();
  }

  List<Integer> bookableHosts() {
    return IntStream.of(bookable).boxed().toList();
  }
}
