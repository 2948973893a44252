package io.gpurental.gateway.platform.jobs;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

/**
 * Each cluster job's last outcome in {@code cluster_job_runs}, so that what a job did is visible
 * cluster-wide in SQL (the alerts read it through {@code cluster_job_runs_view}), whichever node ran it.
 */
final class JobRunRepository {
  private static final String SUCCEEDED = """
      INSERT INTO cluster_job_runs (job, last_run_at, last_ok_at, consecutive_failures) VALUES ($1, now(), now(), 0)
      ON CONFLICT (job) DO UPDATE SET last_run_at = now(), last_ok_at = now(), consecutive_failures = 0""";
  private static final String FAILED = """
      INSERT INTO cluster_job_runs (job, last_run_at, last_failed_at, last_error, consecutive_failures)
      VALUES ($1, now(), now(), $2, 1)
      ON CONFLICT (job) DO UPDATE SET last_run_at = now(), last_failed_at = now(), last_error = $2,
        consecutive_failures = cluster_job_runs.consecutive_failures + 1""";
  private final Pool pool;

  JobRunRepository(Pool pool) {
    this.pool = pool;
  }

  Future<Void> succeeded(String job) {
    return pool.preparedQuery(SUCCEEDED).execute(Tuple.of(job)).mapEmpty();
  }

  Future<Void> failed(String job, String error) {
    String message = error == null ? "failed" : error.length() > 500 ? error.substring(0, 500) : error;
    return pool.preparedQuery(FAILED).execute(Tuple.of(job, message)).mapEmpty();
  }
}
