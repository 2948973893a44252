package io.gpurental.gateway.auth.tokens;

import io.gpurental.gateway.platform.audit.AuditLog;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;

/**
 * {@code account_default_budgets}: the budget an account gives its new tokens (and grants) unless
 * one comes with them. Changes are audited in their transaction.
 */
public final class DefaultBudgetRepository {
  private static final String FIND = """
      SELECT currency, daily_cap, monthly_cap, total_cap, max_price_per_gpu_hour, max_hours, approval_threshold
      FROM account_default_budgets WHERE account_id = $1""";
  private static final String UPSERT = """
      INSERT INTO account_default_budgets (account_id, currency, daily_cap, monthly_cap, total_cap,
        max_price_per_gpu_hour, max_hours, approval_threshold, updated_by)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $1)
      ON CONFLICT (account_id) DO UPDATE SET currency = EXCLUDED.currency, daily_cap = EXCLUDED.daily_cap,
        monthly_cap = EXCLUDED.monthly_cap, total_cap = EXCLUDED.total_cap,
        max_price_per_gpu_hour = EXCLUDED.max_price_per_gpu_hour, max_hours = EXCLUDED.max_hours,
        approval_threshold = EXCLUDED.approval_threshold, updated_at = now(), updated_by = EXCLUDED.updated_by""";
  private static final String DELETE = "DELETE FROM account_default_budgets WHERE account_id = $1";
  private final Pool pool;

  public DefaultBudgetRepository(Pool pool) {
    this.pool = pool;
  }

  /** The account's default budget, if it set one. */
  public Future<Optional<TokenBudget>> find(String accountId) {
    return find(pool, accountId);
  }

  static Future<Optional<TokenBudget>> find(SqlClient client, String accountId) {
    return client.preparedQuery(FIND).execute(Tuple.of(accountId)).map(rows -> {
      var found = rows.iterator();
      return found.hasNext() ? Optional.of(TokenBudget.fromRow(found.next())) : Optional.empty();
    });
  }

  /** Sets (or, with an empty budget, removes) the account's default; the change and its audit commit together. */
  public Future<Void> set(String accountId, Optional<TokenBudget> budget) {
    return pool.withTransaction(tx -> find(tx, accountId).compose(before -> write(tx, accountId, budget)
        .compose(v -> AuditLog.append(tx, accountId, "account.default_budget.set", accountId,
            before.map(TokenBudget::toJson).orElse(null), budget.map(TokenBudget::toJson).orElse(null)))));
  }

  private static Future<Void> write(SqlConnection tx, String accountId, Optional<TokenBudget> budget) {
    if (budget.isEmpty()) {
      return tx.preparedQuery(DELETE).execute(Tuple.of(accountId)).mapEmpty();
    }
    TokenBudget b = budget.get();
    return tx.preparedQuery(UPSERT).execute(Tuple.from(new Object[] {accountId, b.currency(), b.dailyCap(),
        b.monthlyCap(), b.totalCap(), b.maxPricePerGpuHour(), b.maxHours(), b.approvalThreshold()})).mapEmpty();
  }

}
