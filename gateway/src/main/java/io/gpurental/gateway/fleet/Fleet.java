package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import java.util.List;

/**
 * The fleet's port for reservations: start and stop the instance of a reservation on its host.
 * Host agents implement it; until they exist, in sandbox mode, a simulated host does. Both calls
 * may be repeated for the same reservation and must be harmless then.
 */
public interface Fleet {
  /** What the host needs to start an instance. */
  record Launch(String reservationId, String hostId, List<Integer> gpuIndexes, String sshPublicKey) {}

  /** Starts the instance; the host reports how it went through {@code events}. */
  Future<Void> start(Launch launch, InstanceEvents events);

  Future<Void> stop(String reservationId);
}
