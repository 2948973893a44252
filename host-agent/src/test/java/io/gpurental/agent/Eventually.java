package io.gpurental.agent;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** The one bounded wait of these tests: polls a condition until it holds or the time is up. */
final class Eventually {
  private Eventually() {
  }

  static void eventually(Duration within, String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + within.toSeconds() + " s: " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + what);
      }
    }
  }
}
