package io.gpurental.gateway.auth;

import io.gpurental.gateway.auth.tokens.TokenBudget;
import io.vertx.core.Future;

/**
 * What an API token has spent. Auth reports budgets but knows nothing of reservations: the
 * reservations feature implements this port and registers it at boot.
 */
@FunctionalInterface
public interface TokenSpending {
  Future<TokenBudget.Spent> spent(String tokenId);
}
