package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.tokens.TokenBudget;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;

/**
 * Tokens' budgets (auth's {@code token_budgets_view}) and their spending ({@code token_spend_view},
 * this feature's), and which token made a reservation or an extension.
 */
final class BudgetRepository {
  /** One transaction at a time spends a token's budget: held to the end of the transaction. */
  private static final String LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('token-budget:' || $1, 0))";
  private static final String BUDGET = """
      SELECT currency, daily_cap, monthly_cap, total_cap, max_price_per_gpu_hour, max_hours, approval_threshold
      FROM token_budgets_view WHERE token_id = $1""";
  // days and months are UTC ones
  private static final String SPENT = """
      SELECT coalesce(sum(amount) FILTER (WHERE at >= date_trunc('day', now(), 'UTC')), 0) AS today,
             coalesce(sum(amount) FILTER (WHERE at >= date_trunc('month', now(), 'UTC')), 0) AS this_month,
             coalesce(sum(amount), 0) AS total
      FROM token_spend_view WHERE token_id = $1""";
  private static final String RESERVATION_BY = "UPDATE reservations SET token_id = $2 WHERE id = $1";
  private static final String EXTENSION_BY = "UPDATE reservation_extensions SET token_id = $2 WHERE id = $1";

  private BudgetRepository() {}

  static Future<Void> lock(SqlConnection tx, String tokenId) {
    return tx.preparedQuery(LOCK).execute(Tuple.of(tokenId)).mapEmpty();
  }

  static Future<Optional<TokenBudget>> budget(SqlClient client, String tokenId) {
    return client.preparedQuery(BUDGET).execute(Tuple.of(tokenId)).map(rows -> {
      var found = rows.iterator();
      if (!found.hasNext()) {
        return Optional.empty();
      }
      Row row = found.next();
      return Optional.of(new TokenBudget(row.getString("currency"), row.getLong("daily_cap"),
          row.getLong("monthly_cap"), row.getLong("total_cap"), row.getLong("max_price_per_gpu_hour"),
          row.getInteger("max_hours"), row.getLong("approval_threshold")));
    });
  }

  static Future<TokenBudget.Spent> spent(SqlClient client, String tokenId) {
    return client.preparedQuery(SPENT).execute(Tuple.of(tokenId)).map(rows -> {
      Row row = rows.iterator().next();
      return new TokenBudget.Spent(row.getLong("today"), row.getLong("this_month"), row.getLong("total"));
    });
  }

  static Future<Void> reservationBy(SqlConnection tx, String reservationId, String tokenId) {
    return tx.preparedQuery(RESERVATION_BY).execute(Tuple.of(reservationId, tokenId)).mapEmpty();
  }

  static Future<Void> extensionBy(SqlConnection tx, String extensionId, String tokenId) {
    return tx.preparedQuery(EXTENSION_BY).execute(Tuple.of(extensionId, tokenId)).mapEmpty();
  }
}
