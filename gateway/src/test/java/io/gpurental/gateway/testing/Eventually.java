package io.gpurental.gateway.testing;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The one way tests wait for something asynchronous: probe until the condition holds, within a
 * bounded time, and fail with the last value seen. Never a fixed sleep.
 */
public final class Eventually {
  public static final Duration DEFAULT_LIMIT = Duration.ofSeconds(30);
  private static final long PAUSE_MS = 50;

  private Eventually() {}

  /** Probes until {@code done} accepts a value (within 30 s) and returns that value. */
  public static <T> T eventually(String what, Supplier<T> probe, Predicate<? super T> done) {
    return eventually(what, DEFAULT_LIMIT, probe, done);
  }

  /** Probes until {@code done} accepts a value within {@code limit} and returns that value. */
  public static <T> T eventually(String what, Duration limit, Supplier<T> probe, Predicate<? super T> done) {
    long deadline = System.nanoTime() + limit.toNanos();
    T last;
    do {
      last = probe.get();
      if (done.test(last)) {
        return last;
      }
      pause();
    } while (System.nanoTime() < deadline);
    throw new AssertionError("within " + limit.toSeconds() + " s, never " + what + "; last: " + last);
  }

  /** Waits until {@code condition} holds within 30 s. */
  public static void eventually(String what, java.util.function.BooleanSupplier condition) {
    eventually(what, condition::getAsBoolean, Boolean::booleanValue);
  }

  private static void pause() {
    try {
      Thread.sleep(PAUSE_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting", e);
    }
  }
}
