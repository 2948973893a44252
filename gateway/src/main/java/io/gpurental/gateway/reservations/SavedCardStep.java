package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.PaymentRequired;
import io.gpurental.gateway.platform.http.ProblemRecorder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;

/**
 * Pays a hold with the saved card, after the hold's transaction committed: charges it (once,
 * however often this runs for the same payment), then answers from what the database says — the
 * confirmed reservation (201); a decline (402 with Stripe's codes; the hold is released); or, when
 * the bank wants the renter to authenticate, a checkout to pay the still-held GPUs in a browser
 * (402 with {@code checkout_url}). A 201 is stored under the Idempotency-Key here; a 402 or 409
 * fails the request with its domain exception, and the error path stores what it renders.
 */
final class SavedCardStep {
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final Payments payments;
  private final String publicBase;

  SavedCardStep(Vertx vertx, ReservationRepository repository, Payments payments, String publicBase) {
    this.vertx = vertx;
    this.repository = repository;
    this.payments = payments;
    this.publicBase = publicBase;
  }

  Future<IdempotencyKeys.Outcome> finish(Consumer<ProblemRecorder> onProblem, String paymentId, String accountId,
      String key) {
    onProblem.accept((status, body) -> IdempotencyKeys.store(repository.pool(), accountId, key, status, body));
    return payments.chargeSavedCard(paymentId)
        .compose(result -> result.outcome() == Payments.SavedCardResult.Outcome.NEEDS_AUTHENTICATION
            ? checkoutInstead(paymentId) : Future.succeededFuture())
        .compose(v -> answer(paymentId, accountId))
        .compose(outcome -> IdempotencyKeys.store(repository.pool(), accountId, key, outcome.status(), outcome.body())
            .map(outcome));
  }

  /** A new payment by checkout for the same hold (the card's payment failed with authentication_required). */
  private Future<Void> checkoutInstead(String failedPaymentId) {
    return PaymentViewRepository.paidFor(repository.pool(), failedPaymentId)
        .compose(failed -> {
          Payments.Charge charge = new Payments.Charge(Ids.newId("pay"), failed.reservationId(), failed.extensionId(),
              failed.accountId(), failed.amount(), failed.currency(), "GPU reservation " + failed.reservationId(), null);
          String page = publicBase + "/reservations/" + charge.reservationId();
          return payments.checkout(charge, page + "?paid={CHECKOUT_SESSION_ID}", page)
              .compose(checkout -> repository.pool().withTransaction(tx ->
                  Payments.recordPending(tx, charge, "checkout", checkout)));
        });
  }

  private Future<IdempotencyKeys.Outcome> answer(String paymentId, String accountId) {
    return PaymentViewRepository.chargeOutcome(repository.pool(), paymentId)
        .compose(payment -> {
          String reservationId = payment.reservationId();
          if (!"failed".equals(payment.status())) {
            return repository.find(repository.pool(), reservationId, accountId, false)
                .map(found -> answerPaid(found.orElseThrow()));
          }
          publishReleased(reservationId, accountId, payment);
          String checkoutUrl = payment.checkoutUrl();
          JsonObject details = new JsonObject().put("reservation_id", reservationId)
              .put("code", checkoutUrl != null ? payment.failureCode() : "card_declined");
          String detail;
          if (checkoutUrl != null) {
            details.put("checkout_url", checkoutUrl);
            detail = "Your bank wants you to confirm this payment. The GPUs stay held: pay in a browser at"
                + " checkout_url before the hold ends.";
          } else {
            details.put("decline_code", payment.failureCode());
            detail = "The saved card was declined: " + payment.failureMessage() + " The hold was released.";
          }
          return Future.failedFuture(new PaymentRequired(detail, details));
        });
  }

  /**
   * The reservation after its charge: held or paid (201), or, when the charge landed after the
   * hold had already ended (the payment is then refunded in full), 409.
   */
  private IdempotencyKeys.Outcome answerPaid(Reservation reservation) {
    ReservationStatus status = reservation.status();
    if (status.paidAndLive() || status == ReservationStatus.PENDING_PAYMENT) {
      return IdempotencyKeys.Outcome.fresh(201, repository.json(reservation).encode());
    }
    String detail = "The card was charged after this hold had ended (" + status + "); the payment is refunded in full.";
    JsonObject details = new JsonObject().put("reservation_id", reservation.id()).put("reservation_status", status.id());
    throw new Conflict(detail, details);
  }

  private void publishReleased(String reservationId, String accountId, PaymentViewRepository.ChargeOutcome payment) {
    if (payment.checkoutUrl() == null && payment.extensionId() == null) {
      ReservationEvents.publish(vertx, reservationId, accountId, ReservationStatus.CANCELLED.id());
      CatalogChanges.publish(vertx, "saved card declined");
    }
  }
}
