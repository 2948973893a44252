package io.gpurental.gateway.platform.jobs;

import io.vertx.core.Future;

/**
 * One run of a cluster job on this node, and the fence of its steps. A node frozen in the middle
 * of a run (a paused VM, SIGSTOP) loses the job's lock once the others drop it, and they run the
 * job meanwhile; when it thaws, its run must not go on beside theirs. A job made of several steps
 * asks {@link #stillCurrent()} before each one: after a freeze it fails, so the rest of the run is
 * skipped (the next tick, on whichever node holds the lock, does it). What a step had committed
 * before the freeze stands; PostgreSQL's own locks kept the others off what a step in flight held.
 */
public final class JobRun {
  private final FreezeGuard guard;
  private final long freezesAtStart;

  JobRun(FreezeGuard guard) {
    this.guard = guard;
    this.freezesAtStart = guard.freezes();
  }

  /** Fails with {@link CutByFreeze} once this node was frozen after the run began. */
  public Future<Void> stillCurrent() {
    return cutByFreeze() ? Future.failedFuture(new CutByFreeze()) : Future.succeededFuture();
  }

  boolean cutByFreeze() {
    return guard.freezes() != freezesAtStart;
  }

  /** The run stopped between two steps because this node froze during it. */
  public static final class CutByFreeze extends RuntimeException {
    CutByFreeze() {
      super("this node froze during the run; its remaining steps were skipped", null, false, false);
    }
  }
}
