package io.gpurental.gateway.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/** Bounded polling: waits until a condition holds, never longer than the given bound. */
public final class Eventually {
  private static final long POLL_MS = 100;

  private Eventually() {}

  /** Polls {@code attempt} until {@code done} accepts its result; the last result, or fails after {@code bound}. */
  public static <T> T poll(Duration bound, String what, Supplier<T> attempt, java.util.function.Predicate<T> done) {
    Instant deadline = Instant.now().plus(bound);
    T last = attempt.get();
    while (!done.test(last)) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(what + " not within " + bound.toSeconds() + " s; last: " + last);
      }
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + what, e);
      }
      last = attempt.get();
    }
    return last;
  }
}
