package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;

/**
 * What a payment means to what it paid for. Payments owns this port and knows nothing of
 * reservations; reservations implements it and registers it at boot ({@link Payments#reportTo}).
 * The transactional calls run inside the payment's own transaction.
 */
public interface PaymentOutcomes {
  /** {@code confirmed}: the payment bought what it was for; false means it must be refunded. */
  record Paid(boolean confirmed, String accountId, String reservationId, String status) {}

  /** Locks what the payment is for, before the payment row: the lock order cancelling uses too. */
  Future<Void> lock(SqlConnection tx, String reservationId);

  /** The payment succeeded: confirm the reservation (or the extension), if it can still be had. */
  Future<Paid> paid(SqlConnection tx, String reservationId, String extensionId, String cause);

  /** The payment failed for good: release what it was holding. */
  Future<Void> unpaid(SqlConnection tx, String reservationId, String extensionId, String cause);

  /** After commit: tell whoever watches (live updates, the catalog's free counts). */
  void announce(Paid paid);
}
