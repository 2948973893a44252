package io.gpurental.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Retries back off exponentially up to a cap, and agents that failed together do not retry together. */
class BackoffTest {
  private static final Duration FIRST = Duration.ofSeconds(1);
  private static final Duration CAP = Duration.ofSeconds(30);

  @Test
  void stepsDoubleUpToTheCapAndStartOverOnSuccess() {
    Backoff longest = new Backoff(FIRST, CAP, bound -> bound - 1);
    Backoff shortest = new Backoff(FIRST, CAP, bound -> 0);
    long[] steps = {1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000};
    for (long step : steps) {
      assertEquals(step, longest.next(), "the whole step at most");
      assertEquals(step / 2, shortest.next(), "half the step at least");
    }
    longest.reset();
    assertEquals(1_000, longest.next());
  }

  @Test
  void aFleetThatFailedTogetherSpreadsItsRetries() {
    Set<Long> firstRetries = new HashSet<>();
    for (int agent = 0; agent < 200; agent++) {
      long delay = new Backoff(FIRST, CAP).next();
      assertTrue(delay >= 500 && delay <= 1_000, "within the first step: " + delay);
      firstRetries.add(delay);
    }
    assertTrue(firstRetries.size() > 100, "200 agents retried at " + firstRetries.size() + " distinct instants");
  }
}
