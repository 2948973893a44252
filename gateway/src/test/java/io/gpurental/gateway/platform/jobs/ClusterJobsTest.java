package io.gpurental.gateway.platform.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Lock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A cluster job runs on whichever node holds its lock, and lets go of the lock when its run ends. */
class ClusterJobsTest {
  private final Vertx vertx = Vertx.vertx();
  private final ClusterJobs jobs = new ClusterJobs(vertx);
  private final AtomicInteger runs = new AtomicInteger();

  @AfterEach
  void close() {
    jobs.stop();
    TestGateway.await(vertx.close());
  }

  @Test
  void aRunReleasesTheLockSuccessOrFailure() {
    jobs.schedule("count", Duration.ofHours(1), () -> Future.succeededFuture(runs.incrementAndGet()));
    jobs.schedule("fail", Duration.ofHours(1), () -> Future.failedFuture("broken"));
    TestGateway.await(jobs.runNow("count"));
    TestGateway.await(jobs.runNow("count"));
    assertEquals(2, runs.get());

    assertTrue(TestGateway.await(jobs.runNow("fail").map(v -> false).otherwise(true)), "the failure is reported");
    Lock again = TestGateway.await(vertx.sharedData().getLockWithTimeout("jobs.fail", 1000));
    again.release();
  }

  @Test
  void whileAnotherNodeHoldsTheLockTheRunIsSkipped() {
    jobs.schedule("count", Duration.ofHours(1), () -> Future.succeededFuture(runs.incrementAndGet()));
    Lock held = TestGateway.await(vertx.sharedData().getLock("jobs.count"));
    TestGateway.await(jobs.runNow("count"));
    assertEquals(0, runs.get());
    held.release();
    TestGateway.await(jobs.runNow("count"));
    assertEquals(1, runs.get());
  }
}
