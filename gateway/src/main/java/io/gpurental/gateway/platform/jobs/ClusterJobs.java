package io.gpurental.gateway.platform.jobs;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster-singleton jobs: every node ticks each job; a cluster-wide lock ({@link JobLocks}) lets one
 * node at a time run it, and is released when the run ends (or by the cluster when its node dies). The lock saves
 * work, it never decides: a job's SQL must be harmless when run twice or by two nodes at once.
 * Each job's runs on this node are counted and timed ({@code gateway_job_runs_total},
 * {@code gateway_job_failures_total}, {@code gateway_job_duration_seconds}), labelled only by the
 * job's name, which comes from code, never from a request.
 */
public final class ClusterJobs {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterJobs.class);
  private static final String LOCK_PREFIX = "jobs.";
  private final Vertx vertx;
  private final MeterRegistry metrics;
  private final Map<String, Job> jobs = new ConcurrentHashMap<>();
  private final Map<String, Long> timers = new ConcurrentHashMap<>();
  private volatile JobRunRepository outcomes;
  private final Set<String> recorded = ConcurrentHashMap.newKeySet();
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

  private final FreezeGuard freezeGuard;
  private long freezeGuardTimer = -1;

  private final JobLocks locks;

  /** Jobs of a node alone (tests), locked with Vert.x's shared data. */
  public ClusterJobs(Vertx vertx, MeterRegistry metrics) {
    this(vertx, metrics, () -> List.of("this"), JobLocks.sharedData(vertx));
  }

  /**
   * @param members the ids of the cluster members this node sees now (after a freeze, jobs wait for the others)
   * @param locks the jobs' cluster-wide locks
   */
  public ClusterJobs(Vertx vertx, MeterRegistry metrics, Supplier<List<String>> members, JobLocks locks) {
    this(vertx, metrics, members, locks, System::nanoTime);
  }

  /** @param clock a monotonic clock in nanoseconds, the one a freeze is noticed on */
  ClusterJobs(Vertx vertx, MeterRegistry metrics, Supplier<List<String>> members, JobLocks locks, LongSupplier clock) {
    this.vertx = vertx;
    this.metrics = metrics;
    this.freezeGuard = new FreezeGuard(members, clock);
    this.locks = locks;
  }

  /**
   * From now on, each run of the named jobs also records its outcome in {@code cluster_job_runs}
   * (last run, last success, last failure and its error, failures in a row), visible to every
   * node. Only jobs someone watches are named: a write per run is not free for a job ticking often.
   */
  public void recordOutcomesIn(Pool pool, String... names) {
    this.outcomes = new JobRunRepository(pool);
    recorded.addAll(List.of(names));
  }

  /** A job's work and its meters. */
  private record Job(String name, Function<JobRun, Future<?>> work, Counter runs, Counter failures, Timer duration) {}

  /** Runs {@code work} every {@code period} on one node of the cluster. */
  public void schedule(String name, Duration period, Supplier<Future<?>> work) {
    schedule(name, period, run -> work.get());
  }

  /**
   * Runs {@code work} every {@code period} on one node of the cluster; work made of several steps
   * asks its {@link JobRun} before each step whether the run is still this node's.
   */
  public synchronized void schedule(String name, Duration period, Function<JobRun, Future<?>> work) {
    if (jobs.putIfAbsent(name, job(name, work)) != null) {
      throw new IllegalStateException("job '" + name + "' is scheduled already");
    }
    timers.put(name, vertx.setPeriodic(period.toMillis(), id -> runNow(name)));
    if (freezeGuardTimer < 0) {
      freezeGuardTimer = vertx.setPeriodic(FreezeGuard.CHECK_EVERY.toMillis(), id -> freezeGuard.check());
    }
  }

  private Job job(String name, Function<JobRun, Future<?>> work) {
    return new Job(name, work,
        Counter.builder("gateway.job.runs").description("Runs of a cluster job on this node").tag("job", name)
            .register(metrics),
        Counter.builder("gateway.job.failures").description("Runs of a cluster job on this node that failed")
            .tag("job", name).register(metrics),
        Timer.builder("gateway.job.duration").description("How long the runs of a cluster job on this node took")
            .tag("job", name).register(metrics));
  }

  /**
   * Runs the job once now, unless another node is running it (then it completes without running).
   * Fails when the run fails; the next tick runs it again.
   */
  public Future<Void> runNow(String name) {
    Job job = jobs.get(name);
    if (job == null) {
      return Future.failedFuture(new IllegalArgumentException("no job '" + name + "'"));
    }
    if (!freezeGuard.mayRun()) {
      LOG.debug("Job {} held: this node was frozen and is not back in its cluster yet", name);
      return Future.succeededFuture();
    }
    // One attempt per job at a time on this node. When the lock's partition lives on a member that
    // is paused, asking for it hangs until that member is dropped (60 s): ticks piled up dozens of
    // waiting attempts, each on a worker thread (Stripe calls queued behind them), and when the
    // member was dropped they all got the lock at once and ran the job side by side (scenario 7).
    if (!inFlight.add(name)) {
      LOG.debug("Job {} skipped: its previous tick is still running or waiting for the lock", name);
      return Future.succeededFuture();
    }
    String lock = LOCK_PREFIX + name;
    JobRun run = new JobRun(freezeGuard);
    return locks.tryLock(lock).recover(unavailable -> Future.succeededFuture(false)).compose(taken -> {
      if (!taken) {
        LOG.debug("Job {} skipped: another node is running it", name);
        return Future.<Void>succeededFuture();
      }
      // the lock is free again before the next tick may ask for it
      return (run.cutByFreeze() ? Future.<Void>succeededFuture() : run(job, run)).transform(done -> locks.unlock(lock).transform(unlocked -> done.succeeded()
          ? Future.<Void>succeededFuture() : Future.<Void>failedFuture(done.cause())));
    }).onComplete(done -> inFlight.remove(name));
  }

  private Future<Void> run(Job job, JobRun run) {
    return timed(job, run).transform(done -> run.cutByFreeze() ? Future.<Void>succeededFuture() : record(job.name(), done.failed() ? done.cause() : null)
        .transform(recorded -> {
          if (recorded.failed()) {
            LOG.warn("Job {}: its outcome could not be recorded: {}", job.name(), recorded.cause().getMessage());
          }
          return done.succeeded() ? Future.<Void>succeededFuture() : Future.<Void>failedFuture(done.cause());
        }));
  }

  private Future<Void> record(String name, Throwable failure) {
    JobRunRepository repository = outcomes;
    if (repository == null || !recorded.contains(name)) {
      return Future.succeededFuture();
    }
    return failure == null ? repository.succeeded(name) : repository.failed(name, String.valueOf(failure.getMessage()));
  }

  private static Future<Void> timed(Job job, JobRun run) {
    long started = System.nanoTime();
    job.runs().increment();
    // a job that throws instead of returning a failed future fails its run the same way
    return Future.succeededFuture().compose(v -> job.work().apply(run)).transform(done -> {
      long nanos = System.nanoTime() - started;
      job.duration().record(nanos, TimeUnit.NANOSECONDS);
      if (run.cutByFreeze()) {
        // neither done nor failed: the lock was lost in the freeze, and the node holding it now runs the job
        LOG.warn("Job {} spanned a freeze of this node ({} ms in all): the steps it had not begun were skipped",
            job.name(), nanos / 1_000_000);
        return Future.<Void>succeededFuture();
      }
      if (done.succeeded()) {
        LOG.debug("Job {} done in {} ms", job.name(), nanos / 1_000_000);
        return Future.<Void>succeededFuture();
      }
      job.failures().increment();
      LOG.warn("Job {} failed; its next tick retries: {}", job.name(), done.cause().getMessage());
      return Future.<Void>failedFuture(done.cause());
    });
  }

  /** Stops the ticks of every job (a run in progress finishes). */
  public synchronized void stop() {
    timers.values().forEach(vertx::cancelTimer);
    timers.clear();
    if (freezeGuardTimer >= 0) {
      vertx.cancelTimer(freezeGuardTimer);
      freezeGuardTimer = -1;
    }
  }
}
