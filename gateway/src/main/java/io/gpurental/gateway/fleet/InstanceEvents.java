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

  /**
   * The instance's own process ended it, the renter's doing and not the host's (the agent's
   * {@code instance_exited}: its command exited, init was signalled from inside, it ran out of its
   * own memory limit; or {@code image_too_large}: the renter's own image is past the host's pull
   * limit): the reservation ends as cancelling at this moment would, with that refund.
   */
  default Future<Boolean> endedByRenter(String reservationId, String reason) {
    return Future.succeededFuture(false);
  }

  /**
   * The host is pulling the instance's image: {@code bytesDone} of {@code bytesTotal} (null: not
   * known). The reservation shows it in its events; the pull's time counts against the ready guarantee.
   */
  default Future<Boolean> pulling(String reservationId, long bytesDone, Long bytesTotal) {
    return Future.succeededFuture(false);
  }

  /**
   * The instance stopped being served without failing for good: its host went offline or a GPU it
   * uses turned faulty ({@code reason} says which), since {@code since}. The reservation credits
   * the lost time, and fails it if the instance is not back within the failure grace.
   */
  default Future<Boolean> interrupted(String reservationId, String reason, java.time.Instant since) {
    return Future.succeededFuture(false);
  }

  /** An interrupted instance is served again (its host is back, its GPUs healthy) since {@code at}. */
  default Future<Boolean> resumed(String reservationId, java.time.Instant at) {
    return Future.succeededFuture(false);
  }
}
