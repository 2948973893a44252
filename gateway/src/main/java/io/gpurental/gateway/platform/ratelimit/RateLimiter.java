package io.gpurental.gateway.platform.ratelimit;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.map.IMap;
import io.gpurental.gateway.platform.errors.TooManyRequests;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster-wide fixed-window counters in a Hazelcast map: every node counts into the same window,
 * so a limit holds across the cluster (approximately: a lost partition forgets its counts, and a
 * count that does not come within {@link #COUNT_WAIT} is skipped, which only ever lets more through).
 */
public final class RateLimiter {
  private static final String MAP = "gateway.rate-limits";
  /** How long a request waits for its count before it goes uncounted (a limit only ever lets more through). */
  static final Duration COUNT_WAIT = Duration.ofSeconds(2);
  private static final Logger LOG = LoggerFactory.getLogger(RateLimiter.class);
  private static final long WARN_EVERY_MS = 10_000;
  private final AtomicLong uncounted = new AtomicLong();
  private final AtomicLong lastWarned = new AtomicLong();
  private final Vertx vertx;
  private final IMap<String, Integer> counters;

  public RateLimiter(Vertx vertx, HazelcastInstance hazelcast) {
    this.vertx = vertx;
    this.counters = hazelcast.getMap(MAP);
  }

  /**
   * Counts one event for {@code subject} in {@code bucket}; fails with 429 when this window
   * already had {@code limit} events.
   */
  public Future<Void> acquire(String bucket, String subject, int limit, Duration window, String what) {
    long now = System.currentTimeMillis();
    long windowMillis = window.toMillis();
    long windowStart = now - now % windowMillis;
    String key = bucket + "|" + subject + "|" + windowStart;
    return count(key, new Increment(windowStart + windowMillis))
        .timeout(COUNT_WAIT.toMillis(), TimeUnit.MILLISECONDS)
        .recover(unreachable -> {
          // the counter's partition lives on a member that is paused or gone: Hazelcast answers when
          // it drops that member (60 s), and requests waited that long (scenario 7); let it through
          long uncounted = this.uncounted.incrementAndGet();
          long last = lastWarned.get();
          if (now - last >= WARN_EVERY_MS && lastWarned.compareAndSet(last, now)) {
            LOG.warn("Rate limits not counted within {} ms, requests let through ({} so far): {}",
                COUNT_WAIT.toMillis(), uncounted, unreachable.toString());
          }
          return Future.succeededFuture(0);
        })
        .compose(count -> {
          if (count <= limit) {
            return Future.succeededFuture();
          }
          long retryAfter = Math.max(1, (windowStart + windowMillis - now + 999) / 1000);
          return Future.failedFuture(new TooManyRequests(
              "Too many " + what + ": at most " + limit + " per " + describe(window) + ". Retry in "
                  + retryAfter + " s.", retryAfter));
        });
  }

  /**
   * The counter's new value, on the caller's context. Hazelcast runs a plain {@code whenComplete}
   * callback on its default async executor, which on a machine with fewer than 3 cores (a common
   * pool of parallelism 1) starts a new thread for every callback: a thread per write request,
   * measured in the hold and heartbeat profile (docs/benchmarks.md). The callback only hands the
   * value to the context, so it runs on whichever thread completes the operation.
   */
  private Future<Integer> count(String key, Increment increment) {
    Context context = vertx.getOrCreateContext();
    Promise<Integer> counted = Promise.promise();
    counters.submitToKey(key, increment).whenCompleteAsync((count, failure) -> context.runOnContext(v -> {
      if (failure != null) {
        counted.fail(failure);
      } else {
        counted.complete(count);
      }
    }), Runnable::run);
    return counted.future();
  }

  private static String describe(Duration window) {
    return window.toHours() >= 1 ? window.toHours() + " h" : window.toMinutes() >= 1
        ? window.toMinutes() + " min" : window.toSeconds() + " s";
  }

  /** Adds one and returns the new count; the entry expires when its window ends. */
  static final class Increment implements EntryProcessor<String, Integer, Integer> {
    private static final long serialVersionUID = 1L;
    private final long windowEndMillis;

    Increment(long windowEndMillis) {
      this.windowEndMillis = windowEndMillis;
    }

    @Override
    public Integer process(Map.Entry<String, Integer> entry) {
      Integer current = entry.getValue();
      int next = current == null ? 1 : current + 1;
      long ttl = Math.max(1, windowEndMillis - System.currentTimeMillis());
      ((ExtendedMapEntry<String, Integer>) entry).setValue(next, ttl, TimeUnit.MILLISECONDS);
      return next;
    }
  }
}
