package io.gpurental.gateway.reliability;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One API token writing as fast as a few clients can (quotes, which count as writes), spread over
 * the nodes in rotation: how many writes each one-minute window of the cluster-wide limit let
 * through. Windows are the limiter's (epoch-aligned minutes, by the send time; the nodes share
 * this machine's clock).
 */
final class RateLimitProbe {
  private static final long WINDOW_MS = 60_000;
  private static final long PACE_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(25);
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final List<GatewayProcess> nodes;
  private final String token;
  private final Set<GatewayProcess> outOfRotation = ConcurrentHashMap.newKeySet();
  private final Map<Long, AtomicInteger> acceptedPerWindow = new ConcurrentHashMap<>();
  private final Map<Long, AtomicInteger> refusedPerWindow = new ConcurrentHashMap<>();
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  final AtomicInteger other = new AtomicInteger();
  final AtomicLong slowestMillis = new AtomicLong();
  private volatile boolean stopped;

  RateLimitProbe(List<GatewayProcess> nodes, String token) {
    this.nodes = nodes;
    this.token = token;
  }

  void outOfRotation(GatewayProcess node) {
    outOfRotation.add(node);
  }

  void backInRotation(GatewayProcess node) {
    outOfRotation.remove(node);
  }

  void start(int clients) {
    for (int i = 0; i < clients; i++) {
      Thread thread = new Thread(this::loop, "rate-limit-probe-" + i);
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

  /** Accepted writes per window (epoch minute), in order. */
  Map<Long, Integer> accepted() {
    Map<Long, Integer> counts = new TreeMap<>();
    acceptedPerWindow.forEach((window, count) -> counts.put(window, count.get()));
    return counts;
  }

  Map<Long, Integer> refused() {
    Map<Long, Integer> counts = new TreeMap<>();
    refusedPerWindow.forEach((window, count) -> counts.put(window, count.get()));
    return counts;
  }

  /** The writes let through above {@code limit}, summed over the windows. */
  int overshoot(int limit) {
    return accepted().values().stream().mapToInt(count -> Math.max(0, count - limit)).sum();
  }

  private void loop() {
    JsonObject quote = new JsonObject().put("offer_id", "off_fra_l40s_01").put("gpu_count", 1).put("hours", 1);
    while (!stopped) {
      GatewayProcess node = inRotation();
      long sent = System.currentTimeMillis();
      long started = System.nanoTime();
      try {
        HttpResponse<Void> response = http.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/quotes")))
            .timeout(Duration.ofSeconds(90)).header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(quote.encode()))
            .build(), HttpResponse.BodyHandlers.discarding());
        slowestMillis.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
        long window = sent - sent % WINDOW_MS;
        if (response.statusCode() == 201) {
          acceptedPerWindow.computeIfAbsent(window, w -> new AtomicInteger()).incrementAndGet();
        } else if (response.statusCode() == 429) {
          refusedPerWindow.computeIfAbsent(window, w -> new AtomicInteger()).incrementAndGet();
        } else {
          other.incrementAndGet();
        }
      } catch (IOException e) {
        other.incrementAndGet();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      // paced, so the probe alone does not saturate a shared machine: still several times the limit
      java.util.concurrent.locks.LockSupport.parkNanos(PACE_NANOS);
    }
  }

  private GatewayProcess inRotation() {
    for (int i = 0; i < nodes.size(); i++) {
      GatewayProcess node = nodes.get(Math.floorMod(next.getAndIncrement(), nodes.size()));
      if (!outOfRotation.contains(node)) {
        return node;
      }
    }
    throw new IllegalStateException("no node in rotation");
  }
}
