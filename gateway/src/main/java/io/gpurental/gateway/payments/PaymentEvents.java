package io.gpurental.gateway.payments;

import com.stripe.model.PaymentIntent;
import com.stripe.model.StripeObject;
import com.stripe.model.checkout.Session;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.util.Set;

/**
 * Applies a Stripe event, from the webhook or found by the reconciler: each event id is recorded
 * once, in the same transaction as its effects, so a duplicate, a replay or a late copy changes
 * nothing; and each effect is itself guarded by the state it changes, so out-of-order events
 * (a session completed and its payment intent succeeded) settle on the same result.
 */
final class PaymentEvents {
  static final Set<String> HANDLED = Set.of("checkout.session.completed", "checkout.session.expired",
      "payment_intent.succeeded", "payment_intent.payment_failed");
  private final Pool pool;
  private final StripeGateway stripe;
  private final Refunds refunds;
  private final PaymentRecords records;
  private final PaymentOutcomes outcomes;
  private final CardFees fees;

  PaymentEvents(Pool pool, StripeGateway stripe, Refunds refunds, PaymentRecords records, PaymentOutcomes outcomes,
      CardFees fees) {
    this.pool = pool;
    this.stripe = stripe;
    this.refunds = refunds;
    this.records = records;
    this.outcomes = outcomes;
    this.fees = fees;
  }

  /** Applies the event unless it was before; true when this call applied it. */
  Future<Boolean> apply(StripeEvent event) {
    StripeObject object = event.object();
    if (object == null && HANDLED.contains(event.type())) {
      // e.g. the endpoint's API version differs from stripe-java's: never record an event unread
      return Future.failedFuture(new IllegalStateException("Stripe event " + event.id() + " (" + event.type()
          + ", API version " + event.apiVersion() + ") could not be read; set the webhook endpoint's API version to "
          + com.stripe.Stripe.API_VERSION));
    }
    return prepare(event, object).compose(card -> pool.withTransaction(tx -> PaymentRepository.recordEvent(tx,
            event.id(), event.type())
        .compose(fresh -> !fresh ? Future.succeededFuture((PaymentRecords.Applied) null)
            : effects(tx, event.type(), object, card))))
        .map(applied -> {
          if (applied != null) {
            announce(applied);
          }
          return applied != null;
        });
  }

  /** Stripe reads an effect needs, done before the transaction (no network call holds locks). */
  private Future<StripeGateway.SavedCard> prepare(StripeEvent event, StripeObject object) {
    if ("checkout.session.completed".equals(event.type()) && object instanceof Session session
        && "setup".equals(session.getMode()) && session.getSetupIntent() != null) {
      return stripe.cardOfSetup(session.getSetupIntent());
    }
    return Future.succeededFuture(null);
  }

  private Future<PaymentRecords.Applied> effects(SqlConnection tx, String type, StripeObject object,
      StripeGateway.SavedCard card) {
    if (card != null) {
      return PaymentRepository.saveCard(tx, card).map(PaymentRecords.Applied.NOTHING);
    }
    if (object instanceof Session session) {
      if ("checkout.session.completed".equals(type) && "paid".equals(session.getPaymentStatus())) {
        String paymentId = session.getMetadata() == null ? null : session.getMetadata().get("payment_id");
        return records.succeeded(tx, paymentId, session.getId(),
            session.getPaymentIntent(), "paid by card (Stripe Checkout)");
      }
      if ("checkout.session.expired".equals(type)) {
        return PaymentRepository.cancelCheckout(tx, session.getId()).map(PaymentRecords.Applied.NOTHING);
      }
    }
    if (object instanceof PaymentIntent intent && intent.getMetadata() != null
        && intent.getMetadata().get("payment_id") != null) {
      String paymentId = intent.getMetadata().get("payment_id");
      if ("payment_intent.succeeded".equals(type)) {
        return records.succeeded(tx, paymentId, null, intent.getId(), "paid by card");
      }
      if ("payment_intent.payment_failed".equals(type) && intent.getLastPaymentError() != null) {
        // the renter may still pay at the checkout page: note the reason, keep the payment pending
        return PaymentRepository.noteFailure(tx, paymentId,
                intent.getLastPaymentError().getDeclineCode() != null ? intent.getLastPaymentError().getDeclineCode()
                    : intent.getLastPaymentError().getCode(), intent.getLastPaymentError().getMessage())
            .map(PaymentRecords.Applied.NOTHING);
      }
    }
    return Future.succeededFuture(PaymentRecords.Applied.NOTHING);
  }

  /**
   * After commit: what was paid for is told (live updates, free counts), any refund decided runs,
   * and the card fee of a new payment is fetched from Stripe.
   */
  void announce(PaymentRecords.Applied applied) {
    if (applied.succeededPaymentId() != null) {
      fees.recordSoon(applied.succeededPaymentId());
    }
    if (applied.paid() != null) {
      outcomes.announce(applied.paid());
    }
    if (!applied.refunds().isEmpty()) {
      refunds.executeAll(applied.refunds());
    }
  }
}
