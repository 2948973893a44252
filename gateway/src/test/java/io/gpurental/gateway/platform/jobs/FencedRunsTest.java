package io.gpurental.gateway.platform.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.platform.NodeMetrics;
import io.gpurental.gateway.testing.TestGateway;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node frozen during a job's run (SIGSTOP, a paused VM) lost the job's lock to the others; when
 * it thaws, its run takes no further step, and a lock granted across the freeze starts no run.
 */
class FencedRunsTest {
  private static final long FREEZE = Duration.ofSeconds(90).toNanos();
  private final Vertx vertx = Vertx.vertx();
  private final PrometheusMeterRegistry metrics = NodeMetrics.registry();
  private final AtomicLong clock = new AtomicLong(1_000_000_000_000L);
  private final AtomicInteger unlocks = new AtomicInteger();
  private final JobLocks shared = JobLocks.sharedData(vertx);
  private final AtomicInteger steps = new AtomicInteger();
  private boolean freezeWhileLocking;

  private final JobLocks counted = new JobLocks() {
    @Override
    public Future<Boolean> tryLock(String name) {
      if (freezeWhileLocking) {
        clock.addAndGet(FREEZE);
      }
      return shared.tryLock(name);
    }

    @Override
    public Future<Void> unlock(String name) {
      unlocks.incrementAndGet();
      return shared.unlock(name);
    }
  };
  private final ClusterJobs jobs = new ClusterJobs(vertx, metrics, () -> List.of("a", "b", "c"), counted, clock::get);

  @AfterEach
  void close() {
    jobs.stop();
    TestGateway.await(vertx.close());
  }

  @Test
  void aRunFrozenBetweenTwoStepsSkipsTheSecondAndFreesItsLock() {
    jobs.schedule("two-steps", Duration.ofHours(1), run -> Future.succeededFuture().compose(v -> {
      steps.incrementAndGet();
      clock.addAndGet(FREEZE); // the node is paused right after its first step
      return run.stillCurrent();
    }).compose(v -> {
      steps.incrementAndGet();
      return Future.succeededFuture();
    }));
    TestGateway.await(jobs.runNow("two-steps"));
    assertEquals(1, steps.get(), "the step after the freeze did not run");
    assertEquals(1, unlocks.get(), "the lock was given back");
    assertEquals(0, metrics.get("gateway.job.failures").tag("job", "two-steps").counter().count(),
        "a run cut by a freeze is no failure: the node holding the lock now runs the job");
    assertTrue(TestGateway.await(shared.tryLock("jobs.two-steps")), "the lock is free");
  }

  @Test
  void aLockGrantedAcrossAFreezeStartsNoRun() {
    jobs.schedule("one-step", Duration.ofHours(1), run -> Future.succeededFuture(steps.incrementAndGet()));
    freezeWhileLocking = true;
    TestGateway.await(jobs.runNow("one-step"));
    assertEquals(0, steps.get());
    assertEquals(1, unlocks.get(), "the lock it got was given back");
  }

  @Test
  void aRunWithoutAFreezeTakesEveryStep() {
    jobs.schedule("two-steps", Duration.ofHours(1), run -> Future.succeededFuture().compose(v -> {
      steps.incrementAndGet();
      clock.addAndGet(Duration.ofSeconds(15).toNanos()); // a starved event loop is no freeze
      return run.stillCurrent();
    }).compose(v -> Future.succeededFuture(steps.incrementAndGet())));
    TestGateway.await(jobs.runNow("two-steps"));
    assertEquals(2, steps.get());
    assertFalse(TestGateway.await(jobs.runNow("two-steps").map(v -> false).otherwise(true)));
  }
}
