package io.gpurental.bench.baseline;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

/**
 * The bare-stack baseline: the gateway's stack (Vert.x web, the PostgreSQL client, the same
 * embedded server and tables) doing each measured route's essential work (the same SQL and JSON
 * encoding) without the gateway's layers: no OpenAPI validation, authentication, sessions, rate
 * limits, Hazelcast, metrics or problem rendering. Started by the harness as a process of its own,
 * like the gateway, with as many HTTP verticles as the gateway runs (one per core) and the same pool size.
 *
 * <p>Arguments: HTTP port, PostgreSQL port (the gateway's embedded server, database and user postgres).
 */
public final class BaselineServer extends VerticleBase {
  static final int POOL_SIZE = 16;
  private final Pool pool;
  private final int port;

  private BaselineServer(Pool pool, int port) {
    this.pool = pool;
    this.port = port;
  }

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    int pgPort = Integer.parseInt(args[1]);
    Vertx vertx = Vertx.vertx();
    Pool pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(POOL_SIZE))
        .connectingTo(new PgConnectOptions().setHost("127.0.0.1").setPort(pgPort).setDatabase("postgres")
            .setUser("postgres").setCachePreparedStatements(true))
        .using(vertx).build();
    int instances = Runtime.getRuntime().availableProcessors();
    vertx.deployVerticle(() -> new BaselineServer(pool, port), new DeploymentOptions().setInstances(instances))
        .onSuccess(id -> System.out.println("Baseline listening on 127.0.0.1:" + port))
        .onFailure(e -> {
          e.printStackTrace();
          System.exit(1);
        });
  }

  @Override
  public Future<?> start() {
    BareRoutes routes = new BareRoutes(pool);
    Router router = Router.router(vertx);
    router.get("/health/live").handler(ctx -> ctx.json(new JsonObject().put("status", "UP")));
    router.get("/db").handler(routes::db);
    router.get("/api/v1/offers").handler(routes::offers);
    router.get("/api/v1/operator/economics").handler(routes::economics);
    router.post("/api/v1/*").handler(BodyHandler.create().setBodyLimit(65536));
    router.post("/api/v1/quotes").handler(routes::quote);
    router.post("/api/v1/agent/heartbeat").handler(routes::heartbeat);
    return vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port))
        .requestHandler(router).listen();
  }
}
