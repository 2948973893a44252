package io.gpurental.gateway.auth.tokens;

import io.gpurental.gateway.platform.audit.AuditLog;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;

/** {@code token_budgets}: a token's budget, set by its owner (audited in the same transaction). */
public final class TokenBudgetRepository {
  private static final String FIND = """
      SELECT b.currency, b.daily_cap, b.monthly_cap, b.total_cap, b.max_price_per_gpu_hour, b.max_hours,
             b.approval_threshold
      FROM token_budgets b JOIN api_tokens t ON t.id = b.token_id WHERE b.token_id = $1 AND t.account_id = $2""";
  private static final String UPSERT = """
      INSERT INTO token_budgets (token_id, currency, daily_cap, monthly_cap, total_cap, max_price_per_gpu_hour,
        max_hours, approval_threshold, updated_by)
      SELECT id, $3, $4, $5, $6, $7, $8, $9, $2 FROM api_tokens WHERE id = $1 AND account_id = $2
      ON CONFLICT (token_id) DO UPDATE SET currency = EXCLUDED.currency, daily_cap = EXCLUDED.daily_cap,
        monthly_cap = EXCLUDED.monthly_cap, total_cap = EXCLUDED.total_cap,
        max_price_per_gpu_hour = EXCLUDED.max_price_per_gpu_hour, max_hours = EXCLUDED.max_hours,
        approval_threshold = EXCLUDED.approval_threshold, updated_at = now(), updated_by = EXCLUDED.updated_by
      RETURNING token_id""";
  private final Pool pool;

  public TokenBudgetRepository(Pool pool) {
    this.pool = pool;
  }

  /** The budget of the account's token, if it has one. */
  public Future<Optional<TokenBudget>> find(String accountId, String tokenId) {
    return find(pool, accountId, tokenId);
  }

  private static Future<Optional<TokenBudget>> find(SqlClient client, String accountId, String tokenId) {
    return client.preparedQuery(FIND).execute(Tuple.of(tokenId, accountId)).map(rows -> {
      var found = rows.iterator();
      return found.hasNext() ? Optional.of(TokenBudget.fromRow(found.next())) : Optional.empty();
    });
  }

  /** Sets the budget; false when the account has no such token. The change and its audit commit together. */
  public Future<Boolean> set(String accountId, String tokenId, TokenBudget budget) {
    return pool.withTransaction(tx -> set(tx, accountId, tokenId, budget, null));
  }

  /**
   * Sets the budget in the caller's transaction (a new token's, with {@code source} saying where
   * it came from, e.g. the account's default); false when the account has no such token.
   */
  static Future<Boolean> set(SqlConnection tx, String accountId, String tokenId, TokenBudget budget, String source) {
    return find(tx, accountId, tokenId).compose(before -> tx.preparedQuery(UPSERT)
        .execute(Tuple.from(new Object[] {tokenId, accountId, budget.currency(), budget.dailyCap(),
            budget.monthlyCap(), budget.totalCap(), budget.maxPricePerGpuHour(), budget.maxHours(),
            budget.approvalThreshold()}))
        .compose(rows -> rows.rowCount() == 0 ? Future.succeededFuture(false)
            : AuditLog.append(tx, accountId, "token.budget.set", tokenId, before.map(TokenBudget::toJson).orElse(null),
                source == null ? budget.toJson() : budget.toJson().put("source", source)).map(true)));
  }

}
