package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
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
  record Applied(PaymentOutcomes.Paid paid, List<String> refunds, String succeededPaymentId) {
    static final Applied NOTHING = new Applied(null, List.of(), null);
  }

  /**
   * Marks the payment (by our id, or by its checkout session) succeeded with this payment intent.
   * A payment given up on (cancelled hold, failed charge) that Stripe reports paid anyway is
   * accepted too: the money is recorded, and refunded when what it paid for is gone. The
   * reservation is locked before the payment, in the same order as cancelling does.
   */
  Future<Applied> succeeded(SqlConnection tx, String paymentId, String checkoutSessionId, String paymentIntentId,
      String cause) {
    return PaymentRepository.reservationOf(tx, paymentId, checkoutSessionId)
        .compose(found -> found.isEmpty() ? Future.succeededFuture(Applied.NOTHING)
            : outcomes.lock(tx, found.get())
                .compose(locked -> markSucceeded(tx, paymentId, checkoutSessionId, paymentIntentId, cause)));
  }

  private Future<Applied> markSucceeded(SqlConnection tx, String paymentId, String checkoutSessionId,
      String paymentIntentId, String cause) {
    return PaymentRepository.markSucceeded(tx, paymentId, checkoutSessionId, paymentIntentId)
        .compose(succeeded -> {
          if (succeeded.isEmpty()) {
            return Future.succeededFuture(Applied.NOTHING);
          }
          String reservationId = succeeded.get().reservationId();
          String extensionId = succeeded.get().extensionId();
          return PaymentRepository.payablePrice(tx, reservationId, extensionId)
              .compose(price -> Ledger.recordCharge(tx, paymentIntentId, price.price(), price.currency()))
              .compose(v -> outcomes.paid(tx, reservationId, extensionId, cause))
              .compose(paid -> paid.confirmed() ? Future.succeededFuture(new Applied(paid, List.of(),
                  succeeded.get().id())) : refundLate(tx, succeeded.get().id(), paid));
        });
  }

  private static Future<Applied> refundLate(SqlConnection tx, String paymentId, PaymentOutcomes.Paid paid) {
    LOG.warn("Payment {} arrived for {} (now {}) whose GPUs are no longer held; refunding it in full", paymentId,
        paid.reservationId(), paid.status());
    return Refunds.wholePayment(tx, paymentId, "late_payment").map(ids -> new Applied(paid, ids, paymentId));
  }

  /** A final decline: the payment failed, with Stripe's codes. */
  Future<Boolean> failed(SqlConnection tx, String paymentId, String code, String message) {
    return PaymentRepository.markFailed(tx, paymentId, code, message);
  }
}
