package io.gpurental.gateway.auth.tokens;

import io.gpurental.gateway.auth.TokenSpending;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * Budgets of API tokens as reported to their owners ({@code GET /tokens/{id}}) and to the agents
 * holding them (the MCP tool {@code get_budget}): the caps and what was spent, computed by the
 * reservations feature through {@link TokenSpending}.
 */
public final class TokenBudgets {
  private final TokenBudgetRepository budgets;
  private volatile TokenSpending spending = tokenId -> Future.succeededFuture(new TokenBudget.Spent(0, 0, 0));

  public TokenBudgets(TokenBudgetRepository budgets) {
    this.budgets = budgets;
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
