package io.gpurental.gateway.platform.jobs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A frozen node holds its cluster jobs until it is back in a cluster as large as before, or the hold runs out. */
class FreezeGuardTest {
  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
  private final AtomicReference<List<String>> members = new AtomicReference<>(List.of("a", "b", "c"));
  private final FreezeGuard guard = new FreezeGuard(members::get, clock::get);

  @Test
  void aNodeThatWasNeverFrozenRunsItsJobs() {
    for (int i = 0; i < 5; i++) {
      tick(1);
      assertTrue(guard.mayRun());
    }
  }

  @Test
  void aStallShorterThanHazelcastsMemberTimeoutIsNoFreeze() {
    tick(1);
    clock.addAndGet(15 * SECOND); // an event loop starved on a loaded machine
    assertTrue(guard.mayRun());
  }

  @Test
  void afterAFreezeJobsWaitThroughTheStaleViewAndTheSplitUntilTheWholeClusterIsSeenForLong() {
    tick(1);
    clock.addAndGet(90 * SECOND); // SIGSTOP for 90 s; a job's timer fires before the guard's
    assertFalse(guard.mayRun(), "held before the guard's own check ran");
    tick(2);
    assertFalse(guard.mayRun(), "the stale view from before the freeze is not trusted");
    members.set(List.of("c"));
    tick(10);
    assertFalse(guard.mayRun(), "alone after the others dropped it");
    members.set(List.of("a", "b", "c"));
    tick(1);
    assertFalse(guard.mayRun(), "merged back, not yet for long");
    tick(FreezeGuard.STABLE_FOR.toSeconds());
    assertTrue(guard.mayRun(), "merged back for long");
  }

  @Test
  void theHoldRunsOutWhenTheClusterNeverComesBack() {
    tick(1);
    clock.addAndGet(40 * SECOND);
    members.set(List.of("c"));
    tick(1);
    assertFalse(guard.mayRun());
    tick(FreezeGuard.HOLD_AT_MOST.toSeconds());
    assertTrue(guard.mayRun());
  }

  @Test
  void aNewFreezeDuringAHoldRenewsIt() {
    tick(1);
    clock.addAndGet(40 * SECOND);
    assertFalse(guard.mayRun());
    members.set(List.of("c"));
    tick(FreezeGuard.HOLD_AT_MOST.toSeconds() - 10);
    assertFalse(guard.mayRun());
    clock.addAndGet(90 * SECOND); // frozen again while holding, past the first hold's end
    assertFalse(guard.mayRun());
    tick(1);
    assertFalse(guard.mayRun(), "the second freeze holds again");
  }

  @Test
  void aNodeAloneResumesAtOnce() {
    members.set(List.of("a"));
    FreezeGuard alone = new FreezeGuard(members::get, clock::get);
    clock.addAndGet(60 * SECOND);
    assertTrue(alone.mayRun());
  }

  private void tick(long seconds) {
    for (long i = 0; i < seconds; i++) {
      clock.addAndGet(SECOND);
      guard.check();
    }
  }
}
