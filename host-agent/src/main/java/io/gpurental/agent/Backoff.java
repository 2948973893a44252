package io.gpurental.agent;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongUnaryOperator;

/**
 * Capped exponential backoff for calls to the gateway, reset on success: steps of 1 s, 2 s, 4 s …
 * up to the cap, each delay drawn between half the step and the whole step. Without the draw, a
 * fleet whose gateway node died retried in lockstep: every agent at the same instants, so the
 * node that took them over met them all at once and answered some 503 (scenario 8,
 * docs/reliability.md).
 */
final class Backoff {
  private final long firstMillis;
  private final long capMillis;
  /** A uniform draw in [0, bound) for a bound. */
  private final LongUnaryOperator draw;
  private long stepMillis;

  Backoff(Duration first, Duration cap) {
    this(first, cap, bound -> ThreadLocalRandom.current().nextLong(bound));
  }

  Backoff(Duration first, Duration cap, LongUnaryOperator draw) {
    this.firstMillis = first.toMillis();
    this.capMillis = cap.toMillis();
    this.draw = draw;
    this.stepMillis = firstMillis;
  }

  long next() {
    long step = stepMillis;
    stepMillis = Math.min(capMillis, stepMillis * 2);
    long half = step / 2;
    return half + draw.applyAsLong(step - half + 1);
  }

  void reset() {
    stepMillis = firstMillis;
  }
}
