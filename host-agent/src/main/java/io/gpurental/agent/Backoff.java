package io.gpurental.agent;

import java.time.Duration;

/** Capped exponential backoff for calls to the gateway: 1 s, 2 s, 4 s … up to the cap, reset on success. */
final class Backoff {
  private final long firstMillis;
  private final long capMillis;
  private long nextMillis;

  Backoff(Duration first, Duration cap) {
    this.firstMillis = first.toMillis();
    this.capMillis = cap.toMillis();
    this.nextMillis = firstMillis;
  }

  long next() {
    long delay = nextMillis;
    nextMillis = Math.min(capMillis, nextMillis * 2);
    return delay;
  }

  void reset() {
    nextMillis = firstMillis;
  }
}
