package io.gpurental.gateway.reliability;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Renters behind a load balancer that books and pays: each client reserves 1–2 GPUs of 20 for an
 * hour or two on overlapping slots (Idempotency-Key, retried on the next node after a 503, a 429 or no
 * answer within 10 s) and pays it through the sandbox's hosted checkout. Nodes marked out of
 * rotation get no new request, as a balancer stops sending to a node whose readiness fails.
 */
final class BookingPayers {
  private static final String SSH_KEY =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc renter";
  private static final List<String> OFFERS = List.of("off_nyc_h200_01", "off_fra_l40s_01", "off_fra_a100_01");
  /** One-hour slots: 20 GPUs over 60 days, so that bookings go on for the whole test, with overlap. */
  private static final int SLOTS = 24 * 60;
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);
  private static final long RETRY_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final List<GatewayProcess> nodes;
  private final List<String> tokens;
  private final String faultControlKey;
  private final Set<GatewayProcess> outOfRotation = ConcurrentHashMap.newKeySet();
  private final Instant firstSlot = Instant.now().plus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stopped;
  /** Reservations whose checkout the sandbox completed (paid with the 4242 card). */
  final Set<String> paid = ConcurrentHashMap.newKeySet();
  final AtomicInteger conflicts = new AtomicInteger();
  /** Reservation attempts with a final answer (201 or 409, or something unexpected). */
  final AtomicInteger answered = new AtomicInteger();
  final AtomicInteger retries = new AtomicInteger();
  final AtomicInteger limited = new AtomicInteger();
  final AtomicLong slowestMillis = new AtomicLong();
  final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();

  BookingPayers(List<GatewayProcess> nodes, List<String> tokens, String faultControlKey) {
    this.nodes = nodes;
    this.tokens = tokens;
    this.faultControlKey = faultControlKey;
  }

  void outOfRotation(GatewayProcess node) {
    outOfRotation.add(node);
  }

  void backInRotation(GatewayProcess node) {
    outOfRotation.remove(node);
  }

  void start() {
    for (int i = 0; i < tokens.size(); i++) {
      String token = tokens.get(i);
      Random random = new Random(i);
      Thread thread = new Thread(() -> loop(token, random), "booking-payer-" + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  void stop() throws InterruptedException {
    stopped = true;
    for (Thread thread : threads) {
      thread.join(120_000);
    }
  }

  private void loop(String token, Random random) {
    int next = random.nextInt(nodes.size());
    while (!stopped) {
      int hours = 1 + random.nextInt(2);
      JsonObject body = new JsonObject().put("offer_id", OFFERS.get(random.nextInt(OFFERS.size())))
          .put("gpu_count", 1 + random.nextInt(2)).put("hours", hours)
          .put("start", firstSlot.plus(random.nextInt(SLOTS - hours), ChronoUnit.HOURS).toString())
          .put("ssh_public_key", SSH_KEY).put("payment", "checkout");
      String key = UUID.randomUUID().toString();
      HttpResponse<String> created;
      do {
        created = send(nodeAfter(next++), "/api/v1/reservations", "Bearer " + token, "application/json",
            body.encode(), key);
      } while (created == null && !stopped);
      if (created == null) {
        return;
      }
      answered.incrementAndGet();
      if (created.statusCode() == 409) {
        conflicts.incrementAndGet();
      } else if (created.statusCode() != 201) {
        unexpected.add("create: " + created.statusCode() + " " + created.body());
      } else {
        pay(new JsonObject(created.body()), next++);
      }
    }
  }

  private void pay(JsonObject reservation, int next) {
    String checkout = reservation.getJsonObject("payment").getString("checkout_url");
    String session = checkout.replaceAll(".*/checkout/", "");
    String path = "/sandbox/stripe/_test/checkout/sessions/" + session + "/complete";
    HttpResponse<String> done;
    int attempts = 0;
    do {
      attempts++;
      done = send(nodeAfter(next++), path, "Bearer " + faultControlKey, "application/x-www-form-urlencoded",
          "card=4242424242424242", null);
    } while (done == null && !stopped);
    // a retry after an answer that was lost finds the session complete: the first attempt paid
    boolean paidBefore = attempts > 1 && done != null && done.body().contains("status is complete");
    if (done != null && (done.statusCode() == 200 || paidBefore)) {
      paid.add(reservation.getString("id"));
    } else if (done != null) {
      unexpected.add("checkout: " + done.statusCode() + " " + done.body());
    }
  }

  private GatewayProcess nodeAfter(int index) {
    for (int i = 0; i < nodes.size(); i++) {
      GatewayProcess node = nodes.get((index + i) % nodes.size());
      if (!outOfRotation.contains(node)) {
        return node;
      }
    }
    throw new IllegalStateException("no node in rotation");
  }

  /** One attempt; null when it must be retried (no answer in time, 503, 429, a request still in progress). */
  private HttpResponse<String> send(GatewayProcess node, String path, String authorization, String type, String body,
      String idempotencyKey) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url(path))).timeout(ANSWER_WITHIN)
        .header("Authorization", authorization).header("Content-Type", type)
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (idempotencyKey != null) {
      request.header("Idempotency-Key", idempotencyKey);
    }
    long started = System.nanoTime();
    try {
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      slowestMillis.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
      int status = response.statusCode();
      if (status == 429) {
        limited.incrementAndGet();
      }
      if (status == 503 || status == 429 || status == 409 && response.body().contains("still being processed")) {
        return retry();
      }
      return response;
    } catch (IOException e) {
      slowestMillis.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
      return retry();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped = true;
      return null;
    }
  }

  private HttpResponse<String> retry() {
    retries.incrementAndGet();
    LockSupport.parkNanos(RETRY_PAUSE_NANOS);
    return null;
  }
}
