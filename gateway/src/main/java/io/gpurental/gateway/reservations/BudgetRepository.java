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
  /**
   * One transaction at a time spends a token's budget: held to the end of the transaction. Only a
   * token with a budget takes it (the lock is taken per row found); a row answers that it has one.
   */
  private static final String LOCK_IF_BUDGETED = """
      SELECT pg_advisory_xact_lock(hashtextextended('token-budget:' || token_id, 0))
      FROM token_budgets_view WHERE token_id = $1""";
  private static final String BUDGET_COLUMNS = """
      currency, daily_cap, monthly_cap, total_cap, max_price_per_gpu_hour, max_hours, approval_threshold""";
  // days and months are UTC ones
  private static final String SPENT = """
      SELECT coalesce(sum(amount) FILTER (WHERE at >= date_trunc('day', now(), 'UTC')), 0) AS today,
             coalesce(sum(amount) FILTER (WHERE at >= date_trunc('month', now(), 'UTC')), 0) AS this_month,
             coalesce(sum(amount), 0) AS total
      FROM token_spend_view WHERE token_id = $1""";
  /**
   * The budget and what the token has spent, read in one statement after the lock (a statement
   * sees what committed before it started, so the read must not share the lock's statement).
   */
  private static final String BUDGET_AND_SPENT = "SELECT " + BUDGET_COLUMNS + ", s.today, s.this_month, s.total"
      + " FROM token_budgets_view b CROSS JOIN (" + SPENT + ") s WHERE b.token_id = $1";
  private static final String RESERVATION_BY = "UPDATE reservations SET token_id = $2 WHERE id = $1";
  private static final String EXTENSION_BY = "UPDATE reservation_extensions SET token_id = $2 WHERE id = $1";

  private BudgetRepository() {}

  /** Takes the token's budget lock if it has a budget; false (no lock taken) when it has none. */
  static Future<Boolean> lockIfBudgeted(SqlConnection tx, String tokenId) {
    return tx.preparedQuery(LOCK_IF_BUDGETED).execute(Tuple.of(tokenId)).map(rows -> rows.size() > 0);
  }

  /** The token's budget and its spending, if it (still) has a budget. */
  static Future<Optional<Budgeted>> budgetAndSpent(SqlClient client, String tokenId) {
    return client.preparedQuery(BUDGET_AND_SPENT).execute(Tuple.of(tokenId)).map(rows -> {
      var found = rows.iterator();
      if (!found.hasNext()) {
        return Optional.empty();
      }
      Row row = found.next();
      return Optional.of(new Budgeted(new TokenBudget(row.getString("currency"), row.getLong("daily_cap"),
          row.getLong("monthly_cap"), row.getLong("total_cap"), row.getLong("max_price_per_gpu_hour"),
          row.getInteger("max_hours"), row.getLong("approval_threshold")), spent(row)));
    });
  }

  /** A token's budget and what it has spent. */
  record Budgeted(TokenBudget budget, TokenBudget.Spent spent) {}

  static Future<TokenBudget.Spent> spent(SqlClient client, String tokenId) {
    return client.preparedQuery(SPENT).execute(Tuple.of(tokenId)).map(rows -> spent(rows.iterator().next()));
  }

  private static TokenBudget.Spent spent(Row row) {
    return new TokenBudget.Spent(row.getLong("today"), row.getLong("this_month"), row.getLong("total"));
  }

  static Future<Void> reservationBy(SqlConnection tx, String reservationId, String tokenId) {
    return tx.preparedQuery(RESERVATION_BY).execute(Tuple.of(reservationId, tokenId)).mapEmpty();
  }

  static Future<Void> extensionBy(SqlConnection tx, String extensionId, String tokenId) {
    return tx.preparedQuery(EXTENSION_BY).execute(Tuple.of(extensionId, tokenId)).mapEmpty();
  }
}
