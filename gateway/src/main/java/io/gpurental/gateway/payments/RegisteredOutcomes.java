package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;

/**
 * The {@link PaymentOutcomes} registered at boot, for the payment code built before it: payments
 * is created first, reservations (which implements the port) after.
 */
final class RegisteredOutcomes implements PaymentOutcomes {
  private volatile PaymentOutcomes registered;

  void register(PaymentOutcomes outcomes) {
    this.registered = outcomes;
  }

  private PaymentOutcomes target() {
    PaymentOutcomes target = registered;
    if (target == null) {
      throw new IllegalStateException("no PaymentOutcomes registered: wire reservations before taking payments");
    }
    return target;
  }

  @Override
  public Future<Void> lock(SqlConnection tx, String reservationId) {
    return target().lock(tx, reservationId);
  }

  @Override
  public Future<Paid> paid(SqlConnection tx, String reservationId, String extensionId, String cause) {
    return target().paid(tx, reservationId, extensionId, cause);
  }

  @Override
  public Future<Void> unpaid(SqlConnection tx, String reservationId, String extensionId, String cause) {
    return target().unpaid(tx, reservationId, extensionId, cause);
  }

  @Override
  public void announce(Paid paid) {
    target().announce(paid);
  }
}
