package io.gpurental.gateway.reliability;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Many clients booking few GPUs at once, spread over the live nodes of a {@link GatewayCluster}:
 * {@code attempts} reservation requests, at most {@code concurrency} in flight, each for 1–2 GPUs of
 * a random offer for 1–3 hours starting at one of {@code slots} hours. Every answer is sorted:
 * 201 (its id kept), 409 (problem+json or not), any other status, and requests that got no answer
 * (connection errors), apart for those sent to a node the storm was told is down.
 */
public final class BookingStorm {
  private static final String SSH_KEY =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc renter";
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();
  private final List<GatewayProcess> live;
  private final String token;
  private final List<String> offers;
  private final int slots;
  private final Instant firstSlot = Instant.now().plus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private final Set<GatewayProcess> down = ConcurrentHashMap.newKeySet();
  private final AtomicInteger completed = new AtomicInteger();
  private final Result result = new Result();

  public BookingStorm(List<GatewayProcess> nodes, String token, List<String> offers, int slots) {
    this.live = new CopyOnWriteArrayList<>(nodes);
    this.token = token;
    this.offers = offers;
    this.slots = slots;
  }

  /** From now on no request goes to {@code node}; call it before the node is killed or stopped. */
  public void markDown(GatewayProcess node) {
    down.add(node);
    live.remove(node);
  }

  /**
   * Runs the storm and returns what came back; {@code onCompleted} hears the count of answered
   * attempts after each (on an HTTP client thread: it must hand slow work elsewhere).
   */
  public Result run(int attempts, int concurrency, IntConsumer onCompleted) throws InterruptedException {
    Semaphore inFlight = new Semaphore(concurrency);
    Random random = new Random(42);
    long started = System.nanoTime();
    for (int i = 0; i < attempts; i++) {
      inFlight.acquire();
      List<GatewayProcess> now = List.copyOf(live);
      GatewayProcess node = now.get(i % now.size());
      HttpRequest request = request(node, random);
      http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, failure) -> {
        record(node, response, failure);
        inFlight.release();
        onCompleted.accept(completed.incrementAndGet());
      });
    }
    inFlight.acquire(concurrency);
    result.millis = (System.nanoTime() - started) / 1_000_000;
    return result;
  }

  private HttpRequest request(GatewayProcess node, Random random) {
    int hours = 1 + random.nextInt(3);
    Instant start = firstSlot.plus(random.nextInt(slots - hours + 1), ChronoUnit.HOURS);
    JsonObject body = new JsonObject().put("offer_id", offers.get(random.nextInt(offers.size())))
        .put("gpu_count", 1 + random.nextInt(2)).put("hours", hours).put("start", start.toString())
        .put("ssh_public_key", SSH_KEY).put("payment", "checkout");
    return HttpRequest.newBuilder(URI.create(node.url("/api/v1/reservations"))).timeout(Duration.ofSeconds(90))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .header("Idempotency-Key", UUID.randomUUID().toString())
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build();
  }

  private void record(GatewayProcess node, HttpResponse<String> response, Throwable failure) {
    if (failure != null) {
      if (down.contains(node)) {
        result.cutConnections.incrementAndGet();
      } else {
        result.unexpected.add(node.name() + ": no answer: " + failure);
      }
      return;
    }
    int status = response.statusCode();
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (status == 201) {
      result.created.put(new JsonObject(response.body()).getString("id"), node.name());
      if (!down.isEmpty()) {
        result.createdAfterFault.incrementAndGet();
      }
    } else if (status == 409 && type.startsWith("application/problem+json")
        && new JsonObject(response.body()).getInteger("status", 0) == 409) {
      result.conflicts.incrementAndGet();
    } else {
      result.unexpected.add(node.name() + ": " + status + " " + type + " " + response.body());
    }
  }

  /** What the storm saw; thread-safe while it runs. */
  public static final class Result {
    public final Map<String, String> created = new ConcurrentHashMap<>();
    public final AtomicInteger conflicts = new AtomicInteger();
    public final AtomicInteger cutConnections = new AtomicInteger();
    public final AtomicInteger createdAfterFault = new AtomicInteger();
    public final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
    public volatile long millis;

    public String summary(int attempts) {
      return String.format("%d attempts in %d ms: %d created (201, %d of them after the fault), %d conflicts (409),"
          + " %d cut connections to the stopped node, %d unexpected", attempts, millis, created.size(),
          createdAfterFault.get(), conflicts.get(), cutConnections.get(), unexpected.size());
    }
  }
}
