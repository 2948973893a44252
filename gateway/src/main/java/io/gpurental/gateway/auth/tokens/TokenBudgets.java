package io.gpurental.gateway.auth.tokens;

import io.gpurental.gateway.auth.TokenSpending;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlConnection;
import java.util.Optional;

/**
 * Budgets of API tokens as reported to their owners ({@code GET /tokens/{id}}) and to the agents
 * holding them (the MCP tool {@code get_budget}): the caps and what was spent, computed by the
 * reservations feature through {@link TokenSpending}.
 */
public final class TokenBudgets {
  private final TokenBudgetRepository budgets;
  private final DefaultBudgetRepository defaults;
  private volatile TokenSpending spending = tokenId -> Future.succeededFuture(new TokenBudget.Spent(0, 0, 0));

  public TokenBudgets(TokenBudgetRepository budgets, DefaultBudgetRepository defaults) {
    this.budgets = budgets;
    this.defaults = defaults;
  }

  /**
   * The budget the account gives new tokens and grants unless one comes with them (empty: none,
   * they are not limited). For every place that issues credentials to agents (API tokens here,
   * OAuth grants at consent).
   */
  public Future<Optional<TokenBudget>> defaultFor(String accountId) {
    return defaults.find(accountId);
  }

  /** Sets or (empty) removes the account's default budget, audited. */
  public Future<Void> setDefault(String accountId, Optional<TokenBudget> budget) {
    return defaults.set(accountId, budget);
  }

  /**
   * In the transaction that creates the account's token: gives it {@code given}, else the
   * account's default (read in the same transaction), else nothing.
   */
  Future<Void> forNewToken(SqlConnection tx, String accountId, String tokenId, Optional<TokenBudget> given) {
    if (given.isPresent()) {
      return TokenBudgetRepository.set(tx, accountId, tokenId, given.get(), "token_request").mapEmpty();
    }
    return DefaultBudgetRepository.find(tx, accountId).compose(found -> found.isEmpty() ? Future.succeededFuture()
        : TokenBudgetRepository.set(tx, accountId, tokenId, found.get(), "account_default").mapEmpty());
  }

  /** Registers who computes spending (the reservations feature, at boot). */
  public void spendingFrom(TokenSpending spending) {
    this.spending = spending;
  }

  /** The report of the account's token's budget; empty when the token has none. */
  public Future<Optional<JsonObject>> report(String accountId, String tokenId) {
    return budgets.find(accountId, tokenId).compose(found -> found.isEmpty()
        ? Future.succeededFuture(Optional.<JsonObject>empty())
        : spending.spent(tokenId).map(spent -> Optional.of(found.get().report(spent))));
  }

  TokenBudgetRepository repository() {
    return budgets;
  }
}
