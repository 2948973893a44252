package io.gpurental.gateway.payments;

import io.gpurental.gateway.payments.RefundRepository.NewRefund;
import io.gpurental.gateway.payments.RefundRepository.RefundablePayment;
import io.gpurental.gateway.payments.RefundRepository.SucceededRefund;
import io.gpurental.gateway.platform.Futures;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.Money;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Money back to the card. A refund is first written as {@code pending} in the transaction that
 * decides it (a cancellation, a late payment), so the decision cannot be lost; then Stripe is asked
 * with the refund's own id as idempotency key, and the result is recorded with its ledger entry.
 * If the process dies in between, or Stripe cannot be reached, the reconciler asks again until it
 * is done: Stripe answers with the same refund, and it is recorded once. A refund still pending
 * after an hour shows in the ledger check for an operator.
 */
public final class Refunds {
  private static final Logger LOG = LoggerFactory.getLogger(Refunds.class);
  /** Every this many failed attempts, a refund is logged as an error for an operator. */
  private static final int ALERT_EVERY = 10;
  private final Pool pool;
  private final StripeGateway stripe;

  /** SQL: refund row {@code f} as JSON, as {@link #toApi} reads it back. */
  public static final String AS_JSON = RefundRepository.AS_JSON;

  /** A refund as the API shows it, from its {@link #AS_JSON} form. */
  public static JsonObject toApi(JsonObject stored) {
    return toApi(stored.getString("id"), new Money(stored.getLong("amount"), stored.getString("currency")),
        stored.getString("reason"), stored.getString("status"),
        OffsetDateTime.parse(stored.getString("created_at")).toInstant())
        .put("kind", stored.getString("kind", "refund")).put("note", stored.getString("note"));
  }

  /** A refund as the API shows it: the one shape, for the payments list and the reservation alike. */
  public static JsonObject toApi(String id, Money amount, String reason, String status, java.time.Instant createdAt) {
    return new JsonObject().put("id", id).put("amount", amount.toJson()).put("reason", reason).put("status", status)
        .put("created_at", createdAt.toString());
  }

  public Refunds(Pool pool, StripeGateway stripe) {
    this.pool = pool;
    this.stripe = stripe;
  }

  /**
   * Decides refunds of {@code amount} for a reservation, taken from its succeeded payments newest
   * first, never more than each still holds. Returns the new refund ids (to {@link #execute}).
   */
  public static Future<List<String>> forReservation(SqlConnection tx, String reservationId, long amount, String reason) {
    if (amount <= 0) {
      return Future.succeededFuture(List.of());
    }
    return RefundRepository.refundablePayments(tx, reservationId)
        .compose(payments -> {
          List<NewRefund> refunds = new ArrayList<>();
          long left = amount;
          for (RefundablePayment payment : payments) {
            long take = Math.min(left, payment.refundable());
            if (take > 0) {
              refunds.add(new NewRefund(Ids.newId("rfd"), payment.id(), take, payment.currency(), reason));
              left -= take;
            }
          }
          List<String> ids = refunds.stream().map(NewRefund::id).toList();
          return refunds.isEmpty() ? Future.succeededFuture(ids)
              : RefundRepository.insertPending(tx, refunds).map(ids);
        });
  }

  /** A full refund of one payment (e.g. paid after its GPUs were gone). */
  static Future<List<String>> wholePayment(SqlConnection tx, String paymentId, String reason) {
    String id = Ids.newId("rfd");
    return RefundRepository.insertWholePayment(tx, id, paymentId, reason)
        .map(written -> written ? List.of(id) : List.of());
  }

  /** Executes pending refunds one after another; failures stay pending for the reconciler. */
  public Future<Void> executeAll(List<String> ids) {
    return Futures.inSequence(ids, id -> execute(id).recover(failure -> {
      LOG.warn("Refund {} not done yet ({}); it will be retried", id, failure.getMessage());
      return Future.succeededFuture();
    }));
  }

  /** Asks Stripe for one pending refund and records the result (at most once). */
  Future<Void> execute(String refundId) {
    return RefundRepository.toExecute(pool, refundId)
        .compose(refund -> {
          if (!"pending".equals(refund.status())) {
            return Future.succeededFuture();
          }
          return stripe.refund(refundId, refund.paymentIntentId(), refund.amount())
              .recover(failure -> recordAttempt(refundId, failure).compose(v -> Future.failedFuture(failure)))
              .compose(stripeId -> pool.withTransaction(tx -> recordSucceeded(tx, refundId, stripeId)));
        });
  }

  static Future<Void> recordSucceeded(SqlConnection tx, String refundId, String stripeRefundId) {
    return RefundRepository.markSucceeded(tx, refundId, stripeRefundId)
        .compose(succeeded -> {
          if (succeeded.isEmpty()) {
            return Future.succeededFuture();
          }
          SucceededRefund refund = succeeded.get();
          return RefundRepository.takeOffPayment(tx, refund.paymentId(), refund.amount())
              .compose(v -> Ledger.recordRefund(tx, stripeRefundId, refund.amount(), refund.currency(),
                  "credit".equals(refund.kind())));
        });
  }

  /** A refused or unanswered Stripe call: counted, and raised to an operator now and then. */
  private Future<Void> recordAttempt(String refundId, Throwable failure) {
    return RefundRepository.countAttempt(pool, refundId, String.valueOf(failure.getMessage()))
        .onSuccess(attempts -> {
          if (attempts.isPresent() && attempts.get() % ALERT_EVERY == 0) {
            LOG.error("Refund {} still not accepted by Stripe after {} attempts: {}", refundId, attempts.get(),
                failure.getMessage());
          }
        })
        .<Void>mapEmpty().recover(e -> Future.succeededFuture());
  }

  /** Pending refunds left behind (crash, Stripe unreachable), oldest first. */
  Future<List<String>> pending() {
    return RefundRepository.leftPending(pool);
  }
}
