package io.gpurental.gateway.platform.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.platform.NodeMetrics;
import io.gpurental.gateway.testing.TestGateway;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Lock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cluster job runs on whichever node holds its lock, lets go of the lock when its run ends, and
 * counts and times its runs per job.
 */
class ClusterJobsTest {
  private final Vertx vertx = Vertx.vertx();
  private final PrometheusMeterRegistry metrics = NodeMetrics.registry();
  private final ClusterJobs jobs = new ClusterJobs(vertx, metrics);
  private final AtomicInteger runs = new AtomicInteger();

  @AfterEach
  void close() {
    jobs.stop();
    TestGateway.await(vertx.close());
  }

  @Test
  void aRunReleasesTheLockSuccessOrFailureAndIsMeteredPerJob() {
    jobs.schedule("count", Duration.ofHours(1), () -> Future.succeededFuture(runs.incrementAndGet()));
    jobs.schedule("fail", Duration.ofHours(1), () -> Future.failedFuture("broken"));
    jobs.schedule("throw", Duration.ofHours(1), () -> {
      throw new IllegalStateException("a bug");
    });
    assertTrue(metrics.scrape().contains("gateway_job_runs_total{job=\"count\"} 0.0"), "listed before it runs");
    TestGateway.await(jobs.runNow("count"));
    TestGateway.await(jobs.runNow("count"));
    assertEquals(2, runs.get());

    assertTrue(TestGateway.await(jobs.runNow("fail").map(v -> false).otherwise(true)), "the failure is reported");
    Lock again = TestGateway.await(vertx.sharedData().getLockWithTimeout("jobs.fail", 1000));
    again.release();
    assertTrue(TestGateway.await(jobs.runNow("throw").map(v -> false).otherwise(true)), "a throw fails the run");
    TestGateway.await(vertx.sharedData().getLockWithTimeout("jobs.throw", 1000)).release();

    String scrape = metrics.scrape();
    for (String series : new String[] {"gateway_job_runs_total{job=\"count\"} 2.0",
        "gateway_job_failures_total{job=\"count\"} 0.0", "gateway_job_duration_seconds_count{job=\"count\"} 2",
        "gateway_job_runs_total{job=\"fail\"} 1.0", "gateway_job_failures_total{job=\"fail\"} 1.0",
        "gateway_job_duration_seconds_count{job=\"fail\"} 1", "gateway_job_failures_total{job=\"throw\"} 1.0"}) {
      assertTrue(scrape.contains(series), series + " in\n" + scrape);
    }
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
    assertEquals(1, metrics.get("gateway.job.runs").tag("job", "count").counter().count(), "a skipped run is no run");
  }

  @Test
  void aTickWhileThePreviousOneIsStillInFlightOnThisNodeIsSkipped() {
    io.vertx.core.Promise<Void> slow = io.vertx.core.Promise.promise();
    io.vertx.core.Promise<Void> started = io.vertx.core.Promise.promise();
    jobs.schedule("slow", Duration.ofHours(1), () -> {
      runs.incrementAndGet();
      started.tryComplete();
      return slow.future();
    });
    Future<Void> first = jobs.runNow("slow");
    TestGateway.await(started.future()); // the lock is taken asynchronously: the first run is under way only now
    TestGateway.await(jobs.runNow("slow"));
    assertEquals(1, runs.get(), "the second tick did not pile up behind the first");
    slow.complete();
    TestGateway.await(first);
    TestGateway.await(jobs.runNow("slow"));
    assertEquals(2, runs.get());
  }
}
