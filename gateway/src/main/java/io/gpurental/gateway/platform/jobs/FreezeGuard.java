package io.gpurental.gateway.platform.jobs;

import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices that this node was frozen (a paused VM, SIGSTOP, a stalled host) and holds its cluster
 * jobs until it is back in a cluster as large as before. Measured (docs/reliability.md, scenario
 * 7): a node paused 90 s was dropped by the others, and on SIGCONT it formed a cluster of its own
 * until Hazelcast merged it back, so its job locks were its own and every cluster job ran on it
 * and on the others at once. Held, it runs nothing until its view of the members has stayed the
 * same for {@link #STABLE_FOR} since the freeze and shows at least as many as before, or for at
 * most {@link #HOLD_AT_MOST}.
 */
final class FreezeGuard {
  /** How often the guard looks at the clock; a gap far longer than this is a freeze. */
  static final Duration CHECK_EVERY = Duration.ofSeconds(1);
  /**
   * Hazelcast drops a member silent for 60 s; a shorter freeze leaves it a member holding its locks.
   * Above the 15 s stalls a machine loaded to 30 on 2 cores gave event loops in the same scenario.
   */
  static final Duration FROZEN_AFTER = Duration.ofSeconds(30);
  /**
   * How long the view of the members must stay the same to be trusted: right after a freeze it is
   * the stale one from before until Hazelcast's next heartbeat check (5 s) drops the silent others.
   */
  static final Duration STABLE_FOR = Duration.ofSeconds(30);
  static final Duration HOLD_AT_MOST = Duration.ofSeconds(120);
  private static final Logger LOG = LoggerFactory.getLogger(FreezeGuard.class);
  private final Supplier<List<String>> members;
  private final LongSupplier clock;
  private List<String> lastView;
  private long viewSinceNanos;
  private long lastCheckNanos;
  private int membersBefore;
  /** When the hold ends at the latest; 0: not holding. */
  private long holdUntilNanos;
  /** How many freezes this node noticed: a run that began under another count was cut by one. */
  private long freezes;

  /**
   * @param members the ids of the cluster members this node sees now
   * @param clock a monotonic clock in nanoseconds
   */
  FreezeGuard(Supplier<List<String>> members, LongSupplier clock) {
    this.members = members;
    this.clock = clock;
    this.lastCheckNanos = clock.getAsLong();
    this.lastView = members.get();
    this.viewSinceNanos = lastCheckNanos;
    this.membersBefore = lastView.size();
  }

  /** Called every {@link #CHECK_EVERY}. */
  synchronized void check() {
    long now = clock.getAsLong();
    noticeFreeze(now);
    lastCheckNanos = now;
    List<String> view = members.get();
    if (!view.equals(lastView)) {
      lastView = view;
      viewSinceNanos = now;
    }
    int seen = view.size();
    if (holdUntilNanos == 0) {
      membersBefore = seen;
      return;
    }
    boolean rejoined = seen >= membersBefore && now - viewSinceNanos >= STABLE_FOR.toNanos();
    if (rejoined || now - holdUntilNanos >= 0) {
      LOG.info("Cluster jobs run again on this node: {} ({} members, {} before the freeze)",
          rejoined ? "it is back in the cluster" : "the hold ran out", seen, membersBefore);
      holdUntilNanos = 0;
      membersBefore = seen;
    }
  }

  /** Whether this node may run a cluster job now. */
  synchronized boolean mayRun() {
    // the check's own timer may not have fired yet after a freeze; a job's timer must not win that race
    noticeFreeze(clock.getAsLong());
    return holdUntilNanos == 0;
  }

  /** How many freezes this node has noticed so far, this instant included. */
  synchronized long freezes() {
    noticeFreeze(clock.getAsLong());
    return freezes;
  }

  private void noticeFreeze(long now) {
    long gap = now - lastCheckNanos;
    // a node that was alone has no one to run its jobs twice with; a new freeze during a hold renews it
    if (gap < FROZEN_AFTER.toNanos() || membersBefore <= 1) {
      return;
    }
    holdUntilNanos = now + HOLD_AT_MOST.toNanos();
    freezes++;
    viewSinceNanos = now; // the view from before the freeze is not trusted
    lastCheckNanos = now;
    LOG.warn("This node was frozen for {} s (a paused VM or process, a stalled host?): its cluster jobs wait until"
        + " it is back in a cluster of {} members, at most {} s", gap / 1_000_000_000, membersBefore,
        HOLD_AT_MOST.toSeconds());
  }
}
