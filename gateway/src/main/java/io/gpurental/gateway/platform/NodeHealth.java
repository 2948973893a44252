package io.gpurental.gateway.platform;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import io.vertx.sqlclient.Pool;

/** The checks behind {@code /health/live} and {@code /health/ready}. */
public final class NodeHealth {
  private static final long CHECK_TIMEOUT_MS = 2_000;

  private NodeHealth() {}

  /** Live: the process answers (its event loops are not stuck). */
  public static HealthChecks liveness(Vertx vertx) {
    return HealthChecks.create(vertx).register("process", promise -> promise.complete(Status.OK()));
  }

  /** Ready: PostgreSQL answers, this node is a running cluster member, and it is not draining. */
  public static HealthChecks readiness(Vertx vertx, Pool pool, ClusterManager cluster, Readiness readiness) {
    return HealthChecks.create(vertx)
        .register("database", CHECK_TIMEOUT_MS, promise -> pool.query("SELECT 1").execute()
            .onSuccess(rows -> promise.complete(Status.OK()))
            .onFailure(e -> promise.complete(Status.KO(new JsonObject().put("error", e.getMessage())))))
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
}
