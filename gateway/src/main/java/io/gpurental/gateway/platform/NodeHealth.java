package io.gpurental.gateway.platform;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import io.vertx.sqlclient.Pool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The checks behind {@code /health/live} and {@code /health/ready}. */
public final class NodeHealth {
  private static final long CHECK_TIMEOUT_MS = 2_000;
  /**
   * The database check gives up before the health check's own timeout: a check that times out
   * counts as a failed procedure (500), one that reports KO makes readiness 503.
   */
  private static final long DATABASE_ANSWER_MS = 1_500;

  private NodeHealth() {}

  /** Live: the process answers (its event loops are not stuck). */
  public static HealthChecks liveness(Vertx vertx) {
    return HealthChecks.create(vertx).register("process", promise -> promise.complete(Status.OK()));
  }

  /** Ready: PostgreSQL answers, this node is a running cluster member, and it is not draining. */
  public static HealthChecks readiness(Vertx vertx, Pool pool, ClusterManager cluster, Readiness readiness) {
    return HealthChecks.create(vertx)
        .register("database", CHECK_TIMEOUT_MS, promise -> database(pool).onSuccess(promise::tryComplete))
        .register("cluster", CHECK_TIMEOUT_MS, promise -> {
          boolean active = cluster.isActive();
          JsonObject data = new JsonObject().put("members", active ? cluster.getNodes().size() : 0)
              .put("node_id", cluster.getNodeId());
          promise.complete(active ? Status.OK(data) : Status.KO(data));
        })
        .register("accepting_traffic", promise -> promise.complete(readiness.draining()
            ? Status.KO(new JsonObject().put("reason", "draining for shutdown"))
            : Status.OK()));
  }

  private static Future<Status> database(Pool pool) {
    return pool.query("SELECT 1").execute()
        .timeout(DATABASE_ANSWER_MS, TimeUnit.MILLISECONDS)
        .map(rows -> Status.OK())
        .otherwise(e -> Status.KO(new JsonObject().put("error", e instanceof TimeoutException
            ? "PostgreSQL did not answer within " + DATABASE_ANSWER_MS + " ms" : String.valueOf(e.getMessage()))));
  }
}
