package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place a payment becomes succeeded, whoever reports it (the webhook, the off-session
 * charge's answer, the reconciler): a guarded update, so only the first report has an effect —
 * the ledger charge, the reservation confirmed, or, when what was paid for is gone, a refund.
 */
final class PaymentRecords {
  private static final Logger LOG = LoggerFactory.getLogger(PaymentRecords.class);
  private final PaymentOutcomes outcomes;

  PaymentRecords(PaymentOutcomes outcomes) {
    this.outcomes = outcomes;
  }

  /** What one report of success did: nothing (already applied), or its effects to announce after commit. */
  record Applied(PaymentOutcomes.Paid paid, List<String> refunds) {
    static final Applied NOTHING = new Applied(null, List.of());
  }

  /**
   * Marks the payment (by our id, or by its checkout session) succeeded with this payment intent.
   * A payment given up on (cancelled hold, failed charge) that Stripe reports paid anyway is
   * accepted too: the money is recorded, and refunded when what it paid for is gone. The
   * reservation is locked before the payment, in the same order as cancelling does.
   */
  Future<Applied> succeeded(SqlConnection tx, String paymentId, String checkoutSessionId, String paymentIntentId,
      String cause) {
    return tx.preparedQuery("SELECT reservation_id FROM payments WHERE id = $1 OR checkout_session_id = $2")
        .execute(Tuple.of(paymentId, checkoutSessionId))
        .compose(found -> found.size() == 0 ? Future.succeededFuture(Applied.NOTHING)
            : outcomes.lock(tx, found.iterator().next().getString(0))
                .compose(locked -> markSucceeded(tx, paymentId, checkoutSessionId, paymentIntentId, cause)));
  }

  private Future<Applied> markSucceeded(SqlConnection tx, String paymentId, String checkoutSessionId,
      String paymentIntentId, String cause) {
    return tx.preparedQuery("UPDATE payments SET status = 'succeeded', payment_intent_id = $3, failure_code = NULL,"
            + " failure_message = NULL, updated_at = now() WHERE (id = $1 OR checkout_session_id = $2)"
            + " AND status IN ('pending', 'canceled', 'failed') RETURNING id, reservation_id, extension_id")
        .execute(Tuple.of(paymentId, checkoutSessionId, paymentIntentId))
        .compose(rows -> {
          if (rows.size() == 0) {
            return Future.succeededFuture(Applied.NOTHING);
          }
          Row payment = rows.iterator().next();
          String reservationId = payment.getString("reservation_id");
          String extensionId = payment.getString("extension_id");
          return priceOf(tx, reservationId, extensionId)
              .compose(price -> Ledger.recordCharge(tx, paymentIntentId, price.getJsonObject("price"),
                  price.getString("currency")))
              .compose(v -> outcomes.paid(tx, reservationId, extensionId, cause))
              .compose(paid -> paid.confirmed() ? Future.succeededFuture(new Applied(paid, List.of()))
                  : refundLate(tx, payment.getString("id"), paid));
        });
  }

  private static Future<Applied> refundLate(SqlConnection tx, String paymentId, PaymentOutcomes.Paid paid) {
    LOG.warn("Payment {} arrived for {} (now {}) whose GPUs are no longer held; refunding it in full", paymentId,
        paid.reservationId(), paid.status());
    return Refunds.wholePayment(tx, paymentId, "late_payment").map(ids -> new Applied(paid, ids));
  }

  /** A final decline: the payment failed, with Stripe's codes. */
  Future<Boolean> failed(SqlConnection tx, String paymentId, String code, String message) {
    return tx.preparedQuery("UPDATE payments SET status = 'failed', failure_code = $2, failure_message = $3,"
            + " updated_at = now() WHERE id = $1 AND status = 'pending' RETURNING id")
        .execute(Tuple.of(paymentId, code, message)).map(rows -> rows.size() > 0);
  }

  private static Future<JsonObject> priceOf(SqlConnection tx, String reservationId, String extensionId) {
    return tx.preparedQuery("SELECT price, currency FROM payable_prices_view WHERE reservation_id = $1"
            + " AND extension_id IS NOT DISTINCT FROM $2").execute(Tuple.of(reservationId, extensionId))
        .map(rows -> {
          Row row = rows.iterator().next();
          return new JsonObject().put("price", row.getJsonObject("price")).put("currency", row.getString("currency"));
        });
  }
}
