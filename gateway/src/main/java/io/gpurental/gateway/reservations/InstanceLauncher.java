package io.gpurental.gateway.reservations;

import io.vertx.core.Future;
import java.util.List;

/**
 * Starts and stops the instance of a reservation on its host. The fleet's host agents implement
 * it; until then, in sandbox mode, a simulated host does. Both calls may be repeated for the same
 * reservation and must be harmless then.
 */
public interface InstanceLauncher {
  /** What the host needs to start an instance. */
  record Launch(String reservationId, String hostId, List<Integer> gpuIndexes, String sshPublicKey) {}

  /** Starts the instance; the host reports it ready through {@code reports}. */
  Future<Void> start(Launch launch, InstanceReports reports);

  Future<Void> stop(String reservationId);

  /** Where hosts report back. */
  interface InstanceReports {
    /** The instance is up and reachable: {@code ssh -p port user@host}. */
    Future<Boolean> running(String reservationId, String user, String host, int port);

    /**
     * The instance failed on the host and cannot be served: the reservation fails, its GPUs are
     * released and the hours not delivered are credited back to the card automatically.
     */
    Future<Boolean> failed(String reservationId, String reason);
  }
}
