package io.gpurental.gateway.fleet;

import io.gpurental.gateway.reservations.InstanceLauncher;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Production until host agents exist: nothing can start an instance, so reservations stay in
 * provisioning and each start is logged for the operator to act on.
 */
public final class NoHostAgents implements InstanceLauncher {
  private static final Logger LOG = LoggerFactory.getLogger(NoHostAgents.class);

  @Override
  public Future<Void> start(Launch launch, InstanceReports reports) {
    LOG.warn("Reservation {} started on host {} (GPUs {}), but no host agent is connected to start it",
        launch.reservationId(), launch.hostId(), launch.gpuIndexes());
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> stop(String reservationId) {
    LOG.warn("Reservation {} ended; no host agent is connected to stop its instance", reservationId);
    return Future.succeededFuture();
  }
}
