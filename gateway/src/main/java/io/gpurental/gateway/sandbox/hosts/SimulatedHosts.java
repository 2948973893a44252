package io.gpurental.gateway.sandbox.hosts;

import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.fleet.InstanceEvents;
import io.gpurental.gateway.fleet.SshAccess;
import io.vertx.core.Vertx;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sandbox stand-in for the host agents: an instance "starts" after a configured delay and is
 * reported running with an SSH endpoint under the reserved {@code .invalid} domain, so nobody
 * mistakes it for a machine they can reach. {@code POST /sandbox/hosts/_test/instances/{id}/fail}
 * (with the sandbox Stripe key as bearer, like the other test controls) makes a started instance
 * fail, as a broken host would.
 */
public final class SimulatedHosts implements Fleet, Feature {
  private static final String DOMAIN = ".sandbox-hosts.invalid";
  private final Vertx vertx;
  private final Duration readyAfter;
  private final String controlKey;
  /** Instances this node started, with where to report about them. */
  private final Map<String, InstanceEvents> started = new ConcurrentHashMap<>();

  public SimulatedHosts(Vertx vertx, Duration readyAfter, String controlKey) {
    this.vertx = vertx;
    this.readyAfter = readyAfter;
    this.controlKey = controlKey;
  }

  @Override
  public Future<Void> start(Launch launch, InstanceEvents reports) {
    started.put(launch.reservationId(), reports);
    Runnable ready = () -> reports.running(launch.reservationId(), new SshAccess("ubuntu",
        launch.hostId().replace('_', '-') + DOMAIN, 22_000 + Math.floorMod(launch.reservationId().hashCode(), 1_000),
        null, null));
    if (readyAfter.isZero()) {
      ready.run();
    } else {
      vertx.setTimer(readyAfter.toMillis(), id -> ready.run());
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> stop(String reservationId) {
    started.remove(reservationId);
    return Future.succeededFuture();
  }

  @Override
  public void mount(Router router) {
    router.post("/sandbox/hosts/_test/instances/:id/fail").handler(ctx -> {
      if (!("Bearer " + controlKey).equals(ctx.request().getHeader("Authorization"))) {
        ctx.response().setStatusCode(401).end();
        return;
      }
      InstanceEvents reports = started.get(ctx.pathParam("id"));
      if (reports == null) {
        ctx.response().setStatusCode(404).end();
        return;
      }
      reports.failed(ctx.pathParam("id"), "simulated host failure")
          .onSuccess(failed -> ctx.json(new JsonObject().put("failed", failed)))
          .onFailure(ctx::fail);
    });
  }
}
