package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The card fee of each succeeded payment: which still lack one, and storing one once. */
final class CardFeeRepository {
  private static final String CHARGE = """
      SELECT payment_intent_id, currency FROM payments
      WHERE id = $1 AND card_fee IS NULL AND payment_intent_id IS NOT NULL AND status IN ('succeeded', 'refunded')""";
  private static final String MISSING = """
      SELECT id FROM payments
      WHERE card_fee IS NULL AND payment_intent_id IS NOT NULL AND status IN ('succeeded', 'refunded')
      ORDER BY created_at LIMIT $1""";
  private static final String STORE = """
      UPDATE payments SET balance_transaction_id = $2, card_fee = $3, updated_at = now()
      WHERE id = $1 AND card_fee IS NULL RETURNING balance_transaction_id""";

  private CardFeeRepository() {}

  /** The payment intent and currency of a succeeded payment whose fee is not recorded yet. */
  record Unrecorded(String paymentIntentId, String currency) {}

  static Future<Optional<Unrecorded>> unrecorded(SqlClient client, String paymentId) {
    return client.preparedQuery(CHARGE).execute(Tuple.of(paymentId)).map(rows -> rows.size() == 0 ? Optional.empty()
        : Optional.of(new Unrecorded(rows.iterator().next().getString(0), rows.iterator().next().getString(1))));
  }

  /** Succeeded payments without a recorded fee, oldest first. */
  static Future<List<String>> missing(Pool pool, int limit) {
    return pool.preparedQuery(MISSING).execute(Tuple.of(limit)).map(rows -> {
      List<String> ids = new ArrayList<>();
      rows.forEach(row -> ids.add(row.getString(0)));
      return ids;
    });
  }

  /** Stores the fee unless one was stored already; the balance transaction when this call stored it. */
  static Future<Optional<String>> store(SqlClient tx, String paymentId, String balanceTransactionId, long fee) {
    return tx.preparedQuery(STORE).execute(Tuple.of(paymentId, balanceTransactionId, fee))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
  }
}
