package io.gpurental.gateway.platform.jobs;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster-singleton jobs: every node ticks each job; a cluster-wide lock lets one node at a time
 * run it, and is released when the run ends (or by the cluster when its node dies). The lock saves
 * work, it never decides: a job's SQL must be harmless when run twice or by two nodes at once.
 */
public final class ClusterJobs {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterJobs.class);
  private static final String LOCK_PREFIX = "jobs.";
  private final Vertx vertx;
  private final Map<String, Supplier<Future<?>>> jobs = new ConcurrentHashMap<>();
  private final Map<String, Long> timers = new ConcurrentHashMap<>();

  public ClusterJobs(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Runs {@code work} every {@code period} on one node of the cluster. */
  public void schedule(String name, Duration period, Supplier<Future<?>> work) {
    if (jobs.putIfAbsent(name, work) != null) {
      throw new IllegalStateException("job '" + name + "' is scheduled already");
    }
    timers.put(name, vertx.setPeriodic(period.toMillis(), id -> runNow(name)));
  }

  /**
   * Runs the job once now, unless another node is running it (then it completes without running).
   * Fails when the run fails; the next tick runs it again.
   */
  public Future<Void> runNow(String name) {
    Supplier<Future<?>> work = jobs.get(name);
    if (work == null) {
      return Future.failedFuture(new IllegalArgumentException("no job '" + name + "'"));
    }
    return vertx.sharedData().getLockWithTimeout(LOCK_PREFIX + name, 10).compose(
        lock -> run(name, work).onComplete(done -> lock.release()),
        busy -> {
          LOG.debug("Job {} skipped: another node is running it", name);
          return Future.succeededFuture();
        });
  }

  private static Future<Void> run(String name, Supplier<Future<?>> work) {
    long started = System.nanoTime();
    return work.get()
        .onSuccess(v -> LOG.debug("Job {} done in {} ms", name, (System.nanoTime() - started) / 1_000_000))
        .onFailure(e -> LOG.warn("Job {} failed; its next tick retries: {}", name, e.getMessage()))
        .mapEmpty();
  }

  /** Stops the ticks of every job (a run in progress finishes). */
  public void stop() {
    timers.values().forEach(vertx::cancelTimer);
    timers.clear();
  }
}
