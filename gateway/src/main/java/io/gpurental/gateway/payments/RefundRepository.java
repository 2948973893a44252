package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Refunds, and what each takes off its payment, in PostgreSQL. Each method runs on the
 * {@link SqlClient} it is given: the pool, or the caller's transaction.
 */
final class RefundRepository {
  /** Refund row {@code f} as JSON, as {@link Refunds#toApi} reads it back. */
  static final String AS_JSON = "json_build_object('id', f.id, 'amount', f.amount, 'currency', f.currency,"
      + " 'reason', f.reason, 'status', f.status, 'created_at', f.created_at, 'kind', f.kind, 'note', f.note)";
  /** The reservation's paid payments, newest first, locked, with what each can still give back. */
  private static final String REFUNDABLE = """
      SELECT p.id, p.currency, p.amount - coalesce((SELECT sum(f.amount) FROM refunds f
        WHERE f.payment_id = p.id AND f.status <> 'failed'), 0) AS refundable FROM payments p
      WHERE p.reservation_id = $1 AND p.status IN ('succeeded', 'refunded')
      ORDER BY p.created_at DESC, p.id DESC FOR UPDATE OF p""";
  private static final String INSERT_PENDING = """
      INSERT INTO refunds (id, payment_id, amount, currency, reason, status)
      VALUES ($1, $2, $3, $4, $5, 'pending')""";
  private static final String INSERT_WHOLE_PAYMENT = """
      INSERT INTO refunds (id, payment_id, amount, currency, reason, status)
      SELECT $1, p.id, p.amount - p.amount_refunded, p.currency, $2, 'pending' FROM payments p
      WHERE p.id = $3 AND p.amount > p.amount_refunded RETURNING id""";
  private static final String TO_EXECUTE = """
      SELECT f.amount, f.status, p.payment_intent_id FROM refunds f
      JOIN payments p ON p.id = f.payment_id WHERE f.id = $1""";
  private static final String MARK_SUCCEEDED = """
      UPDATE refunds SET status = 'succeeded', stripe_refund_id = $2, updated_at = now()
      WHERE id = $1 AND status = 'pending' RETURNING payment_id, amount, currency, kind""";
  private static final String TAKE_OFF_PAYMENT = """
      UPDATE payments SET amount_refunded = amount_refunded + $2, updated_at = now(),
        status = CASE WHEN amount_refunded + $2 = amount THEN 'refunded' ELSE status END WHERE id = $1""";
  private static final String COUNT_ATTEMPT = """
      UPDATE refunds SET attempts = attempts + 1, failure_message = $2, updated_at = now()
      WHERE id = $1 AND status = 'pending' RETURNING attempts""";
  private static final String LEFT_PENDING = """
      SELECT id FROM refunds WHERE status = 'pending' AND updated_at < now() - interval '5 seconds'
      ORDER BY created_at LIMIT 100""";

  private RefundRepository() {}

  /** A paid payment and how much of it can still be refunded. */
  record RefundablePayment(String id, String currency, long refundable) {}

  /** A refund decided, to write as pending. */
  record NewRefund(String id, String paymentId, long amount, String currency, String reason) {}

  /** A refund as executing it reads it. */
  record RefundToExecute(long amount, String status, String paymentIntentId) {}

  /** A refund that has just become succeeded. */
  record SucceededRefund(String paymentId, long amount, String currency, String kind) {}

  /** The reservation's paid payments, locked {@code FOR UPDATE} in the caller's transaction. */
  static Future<List<RefundablePayment>> refundablePayments(SqlClient tx, String reservationId) {
    return tx.preparedQuery(REFUNDABLE).execute(Tuple.of(reservationId)).map(rows -> {
      List<RefundablePayment> payments = new ArrayList<>();
      for (Row row : rows) {
        payments.add(new RefundablePayment(row.getString("id"), row.getString("currency"), row.getLong("refundable")));
      }
      return payments;
    });
  }

  static Future<Void> insertPending(SqlClient tx, List<NewRefund> refunds) {
    List<Tuple> batch = new ArrayList<>();
    refunds.forEach(r -> batch.add(Tuple.of(r.id(), r.paymentId(), r.amount(), r.currency(), r.reason())));
    return tx.preparedQuery(INSERT_PENDING).executeBatch(batch).mapEmpty();
  }

  /** Writes refund {@code id} of what is left of the payment; false when nothing is left. */
  static Future<Boolean> insertWholePayment(SqlClient tx, String id, String paymentId, String reason) {
    return tx.preparedQuery(INSERT_WHOLE_PAYMENT).execute(Tuple.of(id, reason, paymentId)).map(rows -> rows.size() > 0);
  }

  static Future<RefundToExecute> toExecute(SqlClient client, String refundId) {
    return client.preparedQuery(TO_EXECUTE).execute(Tuple.of(refundId)).map(rows -> {
      Row row = rows.iterator().next();
      return new RefundToExecute(row.getLong("amount"), row.getString("status"), row.getString("payment_intent_id"));
    });
  }

  /** Marks a pending refund succeeded by this Stripe refund; empty when it was not pending. */
  static Future<Optional<SucceededRefund>> markSucceeded(SqlClient tx, String refundId, String stripeRefundId) {
    return tx.preparedQuery(MARK_SUCCEEDED).execute(Tuple.of(refundId, stripeRefundId)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row row = rows.iterator().next();
      return Optional.of(new SucceededRefund(row.getString("payment_id"), row.getLong("amount"),
          row.getString("currency"), row.getString("kind")));
    });
  }

  /** Adds a refunded amount to its payment, which is refunded once all of it is. */
  static Future<Void> takeOffPayment(SqlClient tx, String paymentId, long amount) {
    return tx.preparedQuery(TAKE_OFF_PAYMENT).execute(Tuple.of(paymentId, amount)).mapEmpty();
  }

  /** Counts a failed attempt of a pending refund; the attempts so far (empty: no longer pending). */
  static Future<Optional<Integer>> countAttempt(SqlClient client, String refundId, String failure) {
    return client.preparedQuery(COUNT_ATTEMPT).execute(Tuple.of(refundId, failure))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getInteger(0)));
  }

  /** Pending refunds left behind (crash, Stripe unreachable), oldest first. */
  static Future<List<String>> leftPending(SqlClient client) {
    return client.query(LEFT_PENDING).execute().map(rows -> {
      List<String> ids = new ArrayList<>();
      rows.forEach(row -> ids.add(row.getString(0)));
      return ids;
    });
  }
}
