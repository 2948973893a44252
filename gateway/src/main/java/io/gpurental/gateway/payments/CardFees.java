package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fee Stripe kept on each card charge, read from the charge's balance transaction (stripe-java,
 * on a worker thread) once the payment succeeded, and by the reconciler for any still missing.
 * Stored on the payment and booked in the ledger ({@code expense:card_fees} against
 * {@code asset:stripe_clearing}) in one transaction, once per payment.
 */
final class CardFees {
  private static final Logger LOG = LoggerFactory.getLogger(CardFees.class);
  private static final int BATCH = 100;
  private final Pool pool;
  private final StripeGateway stripe;

  CardFees(Pool pool, StripeGateway stripe) {
    this.pool = pool;
    this.stripe = stripe;
  }

  /** Records the payment's fee unless it is recorded; true when this call recorded it. */
  Future<Boolean> record(String paymentId) {
    return CardFeeRepository.unrecorded(pool, paymentId).compose(found -> found.isEmpty()
        ? Future.succeededFuture(false)
        : stripe.cardFee(found.get().paymentIntentId()).compose(fee -> fee.isEmpty() ? Future.succeededFuture(false)
            : store(paymentId, found.get(), fee.get())));
  }

  private Future<Boolean> store(String paymentId, CardFeeRepository.Unrecorded payment, StripeGateway.CardFee fee) {
    if (!payment.currency().equalsIgnoreCase(fee.currency())) {
      return Future.failedFuture(new IllegalStateException("Stripe's fee for " + paymentId + " is in " + fee.currency()
          + ", the payment in " + payment.currency() + "; not recorded"));
    }
    return pool.withTransaction(tx -> CardFeeRepository.store(tx, paymentId, fee.balanceTransactionId(), fee.amount())
        .compose(stored -> stored.isEmpty() ? Future.succeededFuture(false)
            : Ledger.recordCardFee(tx, stored.get(), fee.amount(), payment.currency()).map(true)));
  }

  /** After a payment succeeded: best effort, the reconciler picks up what fails here. */
  void recordSoon(String paymentId) {
    record(paymentId).onFailure(e -> LOG.warn("Could not read the card fee of {} yet; the reconciler retries: {}",
        paymentId, e.getMessage()));
  }

  /** Records the fees still missing (one failure does not stop the others). */
  Future<Void> recordMissing() {
    return CardFeeRepository.missing(pool, BATCH).compose(this::recordEach);
  }

  private Future<Void> recordEach(List<String> ids) {
    Future<Void> all = Future.succeededFuture();
    for (String id : ids) {
      all = all.compose(v -> record(id).<Void>mapEmpty().recover(e -> {
        LOG.warn("Could not record the card fee of {}: {}", id, e.getMessage());
        return Future.succeededFuture();
      }));
    }
    return all;
  }
}
