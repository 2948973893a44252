package io.gpurental.gateway.fleet;

import io.vertx.core.Future;

/** What hosts report about instances; reservations implements it and hands it to {@link Fleet#start}. */
public interface InstanceEvents {
  /** The instance is up and reachable over SSH. */
  Future<Boolean> running(String reservationId, SshAccess ssh);

  /**
   * The instance failed on the host and cannot be served: the reservation fails, its GPUs are
   * released and the hours not delivered are credited back to the card automatically.
   */
  Future<Boolean> failed(String reservationId, String reason);
}
