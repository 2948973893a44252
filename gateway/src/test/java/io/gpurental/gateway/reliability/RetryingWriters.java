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
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Clients that book as a careful API client does: each reservation has one Idempotency-Key, and a
 * 503 or a lost answer is retried with the same key and body (on the next node) until the answer
 * is final, a 201 or a 409. What each key got is kept, so the database can be checked for rows
 * written twice (or lost).
 */
final class RetryingWriters {
  private static final String SSH_KEY =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc renter";
  private static final List<String> OFFERS = List.of("off_nyc_h200_01", "off_fra_l40s_01", "off_fra_a100_01");
  /** Retries are paced, as a client honouring Retry-After would be, so a refusing node is not spun on. */
  private static final long RETRY_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final List<GatewayProcess> nodes;
  private final String token;
  private final Instant firstSlot = Instant.now().plus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stopped;
  /** Idempotency-Key to the reservation id its 201 carried. */
  final Map<String, String> created = new ConcurrentHashMap<>();
  final AtomicInteger conflicts = new AtomicInteger();
  final AtomicInteger retried = new AtomicInteger();
  final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();

  RetryingWriters(List<GatewayProcess> nodes, String token) {
    this.nodes = nodes;
    this.token = token;
  }

  void start(int clients) {
    for (int i = 0; i < clients; i++) {
      int seed = i;
      Thread thread = new Thread(() -> loop(new Random(seed)), "retrying-writer-" + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  /** Stops after each client's current reservation is final. */
  void stop() throws InterruptedException {
    stopped = true;
    for (Thread thread : threads) {
      thread.join(120_000);
    }
  }

  private void loop(Random random) {
    int next = random.nextInt(nodes.size());
    while (!stopped) {
      String key = UUID.randomUUID().toString();
      JsonObject body = new JsonObject().put("offer_id", OFFERS.get(random.nextInt(OFFERS.size())))
          .put("gpu_count", 1).put("hours", 1)
          .put("start", firstSlot.plus(random.nextInt(400), ChronoUnit.HOURS).toString())
          .put("ssh_public_key", SSH_KEY).put("payment", "checkout");
      while (!finalAnswer(nodes.get(next++ % nodes.size()), key, body)) {
        retried.incrementAndGet();
        LockSupport.parkNanos(RETRY_PAUSE_NANOS);
      }
    }
  }

  /** Sends once; true when the answer is final for this key. */
  private boolean finalAnswer(GatewayProcess node, String key, JsonObject body) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(node.url("/api/v1/reservations")))
        .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json").header("Idempotency-Key", key)
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return false; // no answer: the request may or may not have been written, the key tells
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
    int status = response.statusCode();
    if (status == 201) {
      String id = new JsonObject(response.body()).getString("id");
      String before = created.putIfAbsent(key, id);
      if (before != null && !before.equals(id)) {
        unexpected.add("key " + key + " answered " + before + " and then " + id);
      }
      return true;
    }
    if (status == 409 && response.body().contains("still being processed")) {
      return false;
    }
    if (status == 409) {
      conflicts.incrementAndGet();
      return true;
    }
    if (status == 503) {
      return false;
    }
    unexpected.add(node.name() + ": " + status + " " + response.body());
    return true;
  }
}
