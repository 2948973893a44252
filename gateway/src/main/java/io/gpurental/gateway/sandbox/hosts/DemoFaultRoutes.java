package io.gpurental.gateway.sandbox.hosts;

import io.gpurental.gateway.fleet.DemoHosts;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.MalformedJson;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.platform.errors.ServiceUnavailable;
import io.gpurental.gateway.platform.errors.Unauthorized;
import io.gpurental.gateway.sandbox.FaultControlKey;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /sandbox/hosts/_test/hosts/{host_id}/faults}: GET shows a demo host's faults, POST merges
 * a body into them, DELETE makes the host healthy again. Checked here, on whichever node answers;
 * applied by the node running the demo agents, over the event bus ({@value #ADDRESS}).
 */
final class DemoFaultRoutes {
  static final String ADDRESS = "sandbox.demo-agents.faults";
  private static final String PATH = "/sandbox/hosts/_test/hosts/:host_id/faults";

  private final Vertx vertx;
  private final String controlKey;

  DemoFaultRoutes(Vertx vertx, String controlKey) {
    this.vertx = vertx;
    this.controlKey = controlKey;
  }

  void mount(Router router) {
    router.get(PATH).handler(ctx -> ask(ctx, "get", null));
    router.delete(PATH).handler(ctx -> ask(ctx, "reset", null));
    router.post(PATH).handler(ctx -> {
      DemoHosts.Host host = host(ctx);
      if (host != null) {
        JsonObject body = body(ctx.body().buffer());
        DemoFaults.validate(body, host.gpuCount());
        ask(ctx, "set", body);
      }
    });
  }

  /** Null (and the request failed) when unauthorised or not a demo host. */
  private DemoHosts.Host host(RoutingContext ctx) {
    if (!FaultControlKey.presented(ctx.request().getHeader("Authorization"), controlKey)) {
      ctx.fail(new Unauthorized("The sandbox's fault controls take the installation's fault-control key as bearer"
          + " token (logged at start; docs/sandbox.md \"Fault controls\")."));
      return null;
    }
    String id = ctx.pathParam("host_id");
    DemoHosts.Host host = DemoHosts.HOSTS.stream().filter(h -> h.id().equals(id)).findFirst().orElse(null);
    if (host == null) {
      ctx.fail(new NotFound("No demo host " + id + "; the demo hosts are "
          + String.join(", ", DemoHosts.HOSTS.stream().map(DemoHosts.Host::id).toList()) + "."));
    }
    return host;
  }

  private static JsonObject body(Buffer buffer) {
    if (buffer == null || buffer.length() == 0) {
      throw new Invalid("The body must be a JSON object of faults, e.g. {\"heartbeats\": \"stopped\"}.");
    }
    Object value;
    try {
      value = Json.decodeValue(buffer);
    } catch (DecodeException e) {
      throw new MalformedJson(e);
    }
    if (!(value instanceof JsonObject json)) {
      throw new Invalid("The body must be a JSON object of faults, e.g. {\"heartbeats\": \"stopped\"}.");
    }
    return json;
  }

  private void ask(RoutingContext ctx, String action, JsonObject body) {
    if (body == null && host(ctx) == null) {
      return;
    }
    JsonObject message = new JsonObject().put("host_id", ctx.pathParam("host_id")).put("action", action).put("body", body);
    vertx.eventBus().<JsonObject>request(ADDRESS, message).onSuccess(reply -> ctx.json(reply.body())).onFailure(e -> {
      boolean noAgents = e instanceof ReplyException r && r.failureType() == ReplyFailure.NO_HANDLERS;
      ctx.fail(noAgents ? new ServiceUnavailable("No node runs the demo agents right now; retry shortly.", 5)
          : new ServiceUnavailable("The demo agents did not answer: " + e.getMessage(), 5));
    });
  }
}
