package io.gpurental.gateway.payments;

import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.Money;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
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
  public static final String AS_JSON = "json_build_object('id', f.id, 'amount', f.amount, 'currency', f.currency,"
      + " 'reason', f.reason, 'status', f.status, 'created_at', f.created_at)";

  /** A refund as the API shows it, from its {@link #AS_JSON} form. */
  public static JsonObject toApi(JsonObject stored) {
    return toApi(stored.getString("id"), new Money(stored.getLong("amount"), stored.getString("currency")),
        stored.getString("reason"), stored.getString("status"),
        OffsetDateTime.parse(stored.getString("created_at")).toInstant());
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
    return tx.preparedQuery("SELECT p.id, p.currency, p.amount - coalesce((SELECT sum(f.amount) FROM refunds f"
            + " WHERE f.payment_id = p.id AND f.status <> 'failed'), 0) AS refundable FROM payments p"
            + " WHERE p.reservation_id = $1 AND p.status IN ('succeeded', 'refunded')"
            + " ORDER BY p.created_at DESC, p.id DESC FOR UPDATE OF p").execute(Tuple.of(reservationId))
        .compose(rows -> {
          List<Tuple> refunds = new ArrayList<>();
          List<String> ids = new ArrayList<>();
          long left = amount;
          for (Row payment : rows) {
            long take = Math.min(left, payment.getLong("refundable"));
            if (take > 0) {
              String id = Ids.newId("rfd");
              ids.add(id);
              refunds.add(Tuple.of(id, payment.getString("id"), take, payment.getString("currency"), reason));
              left -= take;
            }
          }
          return refunds.isEmpty() ? Future.succeededFuture(ids)
              : tx.preparedQuery("INSERT INTO refunds (id, payment_id, amount, currency, reason, status)"
                  + " VALUES ($1, $2, $3, $4, $5, 'pending')").executeBatch(refunds).map(ids);
        });
  }

  /** A full refund of one payment (e.g. paid after its GPUs were gone). */
  static Future<List<String>> wholePayment(SqlConnection tx, String paymentId, String reason) {
    String id = Ids.newId("rfd");
    return tx.preparedQuery("INSERT INTO refunds (id, payment_id, amount, currency, reason, status)"
            + " SELECT $1, p.id, p.amount - p.amount_refunded, p.currency, $2, 'pending' FROM payments p"
            + " WHERE p.id = $3 AND p.amount > p.amount_refunded RETURNING id").execute(Tuple.of(id, reason, paymentId))
        .map(rows -> rows.size() == 0 ? List.of() : List.of(id));
  }

  /** Executes pending refunds one after another; failures stay pending for the reconciler. */
  public Future<Void> executeAll(List<String> ids) {
    Future<Void> chain = Future.succeededFuture();
    for (String id : ids) {
      chain = chain.compose(v -> execute(id).recover(failure -> {
        LOG.warn("Refund {} not done yet ({}); it will be retried", id, failure.getMessage());
        return Future.succeededFuture();
      }));
    }
    return chain;
  }

  /** Asks Stripe for one pending refund and records the result (at most once). */
  Future<Void> execute(String refundId) {
    return pool.preparedQuery("SELECT f.amount, f.status, p.payment_intent_id FROM refunds f"
            + " JOIN payments p ON p.id = f.payment_id WHERE f.id = $1").execute(Tuple.of(refundId))
        .compose(rows -> {
          Row refund = rows.iterator().next();
          if (!"pending".equals(refund.getString("status"))) {
            return Future.succeededFuture();
          }
          return stripe.refund(refundId, refund.getString("payment_intent_id"), refund.getLong("amount"))
              .recover(failure -> recordAttempt(refundId, failure).compose(v -> Future.failedFuture(failure)))
              .compose(stripeId -> pool.withTransaction(tx -> recordSucceeded(tx, refundId, stripeId)));
        });
  }

  static Future<Void> recordSucceeded(SqlConnection tx, String refundId, String stripeRefundId) {
    return tx.preparedQuery("UPDATE refunds SET status = 'succeeded', stripe_refund_id = $2, updated_at = now()"
            + " WHERE id = $1 AND status = 'pending' RETURNING payment_id, amount, currency")
        .execute(Tuple.of(refundId, stripeRefundId))
        .compose(rows -> {
          if (rows.size() == 0) {
            return Future.succeededFuture();
          }
          Row refund = rows.iterator().next();
          return tx.preparedQuery("UPDATE payments SET amount_refunded = amount_refunded + $2, updated_at = now(),"
                  + " status = CASE WHEN amount_refunded + $2 = amount THEN 'refunded' ELSE status END WHERE id = $1")
              .execute(Tuple.of(refund.getString("payment_id"), refund.getLong("amount")))
              .compose(v -> Ledger.recordRefund(tx, stripeRefundId, refund.getLong("amount"), refund.getString("currency")));
        });
  }

  /** A refused or unanswered Stripe call: counted, and raised to an operator now and then. */
  private Future<Void> recordAttempt(String refundId, Throwable failure) {
    return pool.preparedQuery("UPDATE refunds SET attempts = attempts + 1, failure_message = $2, updated_at = now()"
            + " WHERE id = $1 AND status = 'pending' RETURNING attempts")
        .execute(Tuple.of(refundId, String.valueOf(failure.getMessage())))
        .onSuccess(rows -> {
          if (rows.size() > 0 && rows.iterator().next().getInteger(0) % ALERT_EVERY == 0) {
            LOG.error("Refund {} still not accepted by Stripe after {} attempts: {}", refundId,
                rows.iterator().next().getInteger(0), failure.getMessage());
          }
        })
        .<Void>mapEmpty().recover(e -> Future.succeededFuture());
  }

  /** Pending refunds left behind (crash, Stripe unreachable), oldest first. */
  Future<List<String>> pending() {
    return pool.query("SELECT id FROM refunds WHERE status = 'pending' AND updated_at < now() - interval '5 seconds'"
        + " ORDER BY created_at LIMIT 100").execute().map(rows -> {
          List<String> ids = new ArrayList<>();
          rows.forEach(row -> ids.add(row.getString(0)));
          return ids;
        });
  }
}
