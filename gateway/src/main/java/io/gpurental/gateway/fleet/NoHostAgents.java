package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hosts no agent enrolled (in either mode): nothing can start an instance, so reservations stay in
 * provisioning and each start is logged for the operator to act on, once per reservation (the
 * scheduler asks again every tick for what is stuck).
 */
public final class NoHostAgents implements Fleet {
  private static final Logger LOG = LoggerFactory.getLogger(NoHostAgents.class);
  // reservations waiting for an agent; they leave when they end, so it holds only what is provisioning
  private final Set<String> announced = ConcurrentHashMap.newKeySet();

  @Override
  public Future<Void> start(Launch launch, InstanceEvents reports) {
    if (announced.add(launch.reservationId())) {
      LOG.warn("Reservation {} started on host {} (GPUs {}), but no host agent is connected to start it",
          launch.reservationId(), launch.hostId(), launch.gpuIndexes());
    }
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> stop(String reservationId) {
    announced.remove(reservationId);
    LOG.warn("Reservation {} ended; no host agent is connected to stop its instance", reservationId);
    return Future.succeededFuture();
  }
}
