package io.gpurental.gateway.sandbox.hosts;

import io.gpurental.gateway.reservations.InstanceLauncher;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;

/**
 * Sandbox stand-in for the host agents: an instance "starts" after a configured delay and is
 * reported running with an SSH endpoint under the reserved {@code .invalid} domain, so nobody
 * mistakes it for a machine they can reach.
 */
public final class SimulatedHosts implements InstanceLauncher {
  private static final String DOMAIN = ".sandbox-hosts.invalid";
  private final Vertx vertx;
  private final Duration readyAfter;

  public SimulatedHosts(Vertx vertx, Duration readyAfter) {
    this.vertx = vertx;
    this.readyAfter = readyAfter;
  }

  @Override
  public Future<Void> start(Launch launch, InstanceReports reports) {
    Runnable ready = () -> reports.running(launch.reservationId(), "ubuntu", launch.hostId().replace('_', '-') + DOMAIN,
        22_000 + Math.floorMod(launch.reservationId().hashCode(), 1_000));
    if (readyAfter.isZero()) {
      ready.run();
    } else {
      vertx.setTimer(readyAfter.toMillis(), id -> ready.run());
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> stop(String reservationId) {
    return Future.succeededFuture();
  }
}
