package io.gpurental.gateway.reservations;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

/**
 * What reservations reads of its payments and refunds, through the views payments publishes for
 * it ({@code reservation_payments_view}, {@code reservation_refunds_view}); payments writes them.
 */
final class PaymentViewRepository {
  private static final String AMOUNT_KEPT = "SELECT coalesce(sum(p.amount), 0) - coalesce((SELECT sum(f.amount)"
      + " FROM reservation_refunds_view f WHERE f.reservation_id = $1 AND f.status <> 'failed'), 0)"
      + " FROM reservation_payments_view p WHERE p.reservation_id = $1 AND p.status IN ('succeeded', 'refunded')";
  /** The reservation's own payment still waiting (not an extension's), with how it is paid. */
  private static final String PENDING_OF = "SELECT p.payment_id, r.payment_method FROM reservation_payments_view p"
      + " JOIN reservations r ON r.id = p.reservation_id"
      + " WHERE p.reservation_id = $1 AND p.extension_id IS NULL AND p.status = 'pending'";
  private static final String PAID_FOR = "SELECT * FROM reservation_payments_view WHERE payment_id = $1";
  private static final String CHARGE_OUTCOME = "SELECT p.status, p.failure_code, p.failure_message, p.reservation_id,"
      + " p.extension_id, (SELECT c.checkout_url FROM reservation_payments_view c"
      + " WHERE c.reservation_id = p.reservation_id AND c.extension_id IS NOT DISTINCT FROM p.extension_id"
      + " AND c.status = 'pending' AND c.checkout_url IS NOT NULL ORDER BY c.created_at DESC LIMIT 1)"
      + " AS checkout_url FROM reservation_payments_view p WHERE p.payment_id = $1";

  private PaymentViewRepository() {}

  /** What a payment pays for: whose, which reservation (or extension of it), how much. */
  record Pending(String paymentId, String method) {}

  static Future<java.util.Optional<Pending>> pendingOf(SqlClient client, String reservationId) {
    return client.preparedQuery(PENDING_OF).execute(io.vertx.sqlclient.Tuple.of(reservationId)).map(rows -> {
      var found = rows.iterator();
      if (!found.hasNext()) {
        return java.util.Optional.empty();
      }
      var row = found.next();
      return java.util.Optional.of(new Pending(row.getString("payment_id"), row.getString("payment_method")));
    });
  }

  record PaidFor(String reservationId, String extensionId, String accountId, long amount, String currency) {}

  /** A charge as it ended, with the checkout still open for the same hold, if one is. */
  record ChargeOutcome(String status, String failureCode, String failureMessage, String reservationId,
      String extensionId, String checkoutUrl) {}

  /**
   * What the renter has paid for this reservation (and its extensions) and not yet had back or
   * been promised back: captured payments minus every refund not failed. Read after locking the
   * reservation, so a payment committed meanwhile is seen.
   */
  static Future<Long> amountKept(SqlClient tx, String id) {
    return tx.preparedQuery(AMOUNT_KEPT).execute(Tuple.of(id)).map(rows -> rows.iterator().next().getLong(0));
  }

  static Future<PaidFor> paidFor(SqlClient client, String paymentId) {
    return client.preparedQuery(PAID_FOR).execute(Tuple.of(paymentId)).map(rows -> {
      Row row = rows.iterator().next();
      return new PaidFor(row.getString("reservation_id"), row.getString("extension_id"), row.getString("account_id"),
          row.getLong("amount"), row.getString("currency"));
    });
  }

  static Future<ChargeOutcome> chargeOutcome(SqlClient client, String paymentId) {
    return client.preparedQuery(CHARGE_OUTCOME).execute(Tuple.of(paymentId)).map(rows -> {
      Row row = rows.iterator().next();
      return new ChargeOutcome(row.getString("status"), row.getString("failure_code"), row.getString("failure_message"),
          row.getString("reservation_id"), row.getString("extension_id"), row.getString("checkout_url"));
    });
  }
}
