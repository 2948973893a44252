package io.gpurental.agent;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/** The gateway's half of docs/agent-protocol.md, small enough to read in a test. */
final class FakeGateway {
  static final String TOKEN = "gpr_enr_testtoken";
  static final String CREDENTIAL = "gpr_host_testcredential";
  static final String HOST_ID = "host_test1";

  final List<JsonObject> enrolments = new CopyOnWriteArrayList<>();
  final List<JsonObject> heartbeats = new CopyOnWriteArrayList<>();
  /** Every report in arrival order, each with its instance id under "id". */
  final List<JsonObject> reports = new CopyOnWriteArrayList<>();
  private final Vertx vertx;
  private final Set<String> everDesired = new HashSet<>();
  private final List<RoutingContext> parkedPolls = new ArrayList<>();
  private HttpServer server;
  private boolean tokenUsed;
  private volatile boolean revoked;
  private long version = 1;
  private JsonArray instances = new JsonArray();

  FakeGateway(Vertx vertx) {
    this.vertx = vertx;
  }

  Future<FakeGateway> start() {
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create());
    router.post("/api/v1/agent/enroll").handler(this::enroll);
    router.post("/api/v1/agent/heartbeat").handler(ctx -> authorized(ctx, this::heartbeat));
    router.get("/api/v1/agent/desired-state").handler(ctx -> authorized(ctx, this::desiredState));
    router.put("/api/v1/agent/instances/:id").handler(ctx -> authorized(ctx, this::report));
    return vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").map(s -> {
      server = s;
      return this;
    });
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  Future<Void> close() {
    return server.close();
  }

  void revoke() {
    revoked = true;
  }

  /** Changes the desired state and answers the waiting long polls. */
  synchronized void desire(JsonObject... desired) {
    instances = new JsonArray(List.of((Object[]) desired));
    for (JsonObject i : desired) {
      everDesired.add(i.getString("id"));
    }
    version++;
    List<RoutingContext> waiting = List.copyOf(parkedPolls);
    parkedPolls.clear();
    waiting.forEach(this::answerDesired);
  }

  /** The states reported for one instance, in order. */
  List<String> statesOf(String id) {
    return reports.stream().filter(r -> r.getString("id").equals(id)).map(r -> r.getString("state")).toList();
  }

  JsonObject lastReport(String id, String state) {
    JsonObject last = null;
    for (JsonObject r : reports) {
      if (r.getString("id").equals(id) && r.getString("state").equals(state)) {
        last = r;
      }
    }
    return last;
  }

  private synchronized void enroll(RoutingContext ctx) {
    if (!("Bearer " + TOKEN).equals(ctx.request().getHeader("Authorization")) || tokenUsed) {
      ctx.response().setStatusCode(401).end();
      return;
    }
    tokenUsed = true;
    enrolments.add(ctx.body().asJsonObject());
    json(ctx, 201, new JsonObject().put("host_id", HOST_ID).put("credential", CREDENTIAL)
        .put("heartbeat_interval_seconds", 1));
  }

  private void heartbeat(RoutingContext ctx) {
    heartbeats.add(ctx.body().asJsonObject());
    synchronized (this) {
      json(ctx, 200, new JsonObject().put("heartbeat_interval_seconds", 1).put("desired_version", version));
    }
  }

  private synchronized void desiredState(RoutingContext ctx) {
    String after = ctx.request().getParam("after_version");
    if (after == null || Long.parseLong(after) < version) {
      answerDesired(ctx);
      return;
    }
    parkedPolls.add(ctx);
    long waitMillis = Long.parseLong(ctx.request().getParam("wait_seconds", "25")) * 1000;
    vertx.setTimer(Math.max(1, waitMillis), id -> {
      synchronized (this) {
        if (parkedPolls.remove(ctx)) {
          answerDesired(ctx);
        }
      }
    });
  }

  private void answerDesired(RoutingContext ctx) {
    json(ctx, 200, new JsonObject().put("version", version).put("instances", instances.copy()));
  }

  private synchronized void report(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    if (!everDesired.contains(id)) {
      ctx.response().setStatusCode(404).end();
      return;
    }
    reports.add(ctx.body().asJsonObject().put("id", id));
    ctx.response().setStatusCode(204).end();
  }

  private void authorized(RoutingContext ctx, io.vertx.core.Handler<RoutingContext> next) {
    if (revoked || !("Bearer " + CREDENTIAL).equals(ctx.request().getHeader("Authorization"))) {
      ctx.response().setStatusCode(401).end();
      return;
    }
    next.handle(ctx);
  }

  private static void json(RoutingContext ctx, int status, JsonObject body) {
    ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
  }
}
