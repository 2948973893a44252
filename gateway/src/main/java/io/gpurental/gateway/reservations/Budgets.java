package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.auth.TokenSpending;
import io.gpurental.gateway.auth.tokens.TokenBudget;
import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.platform.errors.ApiException;
import io.gpurental.gateway.pricing.Quote;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;

/**
 * Enforces API tokens' budgets inside the transaction that holds the GPUs: under a per-token lock,
 * so racing reservations of one token are counted one after another and never both pass a cap,
 * the quote is checked against the token's caps and what it has spent (computed in PostgreSQL).
 * People signed in, and tokens without a budget, are not limited.
 */
final class Budgets implements TokenSpending {
  private final Pool pool;

  Budgets(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<TokenBudget.Spent> spent(String tokenId) {
    return BudgetRepository.spent(pool, tokenId);
  }

  /**
   * Refuses the quote (403 budget_exceeded) when it would pass a cap of the caller's token;
   * otherwise whether it is above the token's approval threshold (the owner must approve it).
   */
  static Future<Boolean> check(SqlConnection tx, Principal caller, Quote quote) {
    if (caller.tokenId().isEmpty()) {
      return Future.succeededFuture(false);
    }
    String tokenId = caller.tokenId().get();
    // tokens without a budget take no lock: their racing reservations wait only on the host's
    return BudgetRepository.lockIfBudgeted(tx, tokenId).compose(locked -> !locked ? Future.succeededFuture(false)
        : BudgetRepository.budgetAndSpent(tx, tokenId).map(found -> {
          if (found.isEmpty()) {
            return false;
          }
          refuseIfOver(found.get().budget(), found.get().spent(), quote);
          Long threshold = found.get().budget().approvalThreshold();
          return threshold != null && quote.total().amount() > threshold;
        }));
  }

  /**
   * An extension of a reservation that so far runs {@code hoursSoFar} for {@code totalSoFar}: held
   * to the caps like a booking, and to {@code max_hours} and the approval threshold on the whole
   * reservation, so that extending again and again never adds up past them. Extensions have no
   * approval of their own: one that takes the reservation past the threshold is refused (the
   * account's owner, signed in, may extend it).
   */
  static Future<Void> checkExtension(SqlConnection tx, Principal caller, Quote quote, int hoursSoFar, long totalSoFar) {
    if (caller.tokenId().isEmpty()) {
      return Future.succeededFuture();
    }
    String tokenId = caller.tokenId().get();
    return BudgetRepository.lockIfBudgeted(tx, tokenId).compose(locked -> !locked ? Future.succeededFuture()
        : BudgetRepository.budgetAndSpent(tx, tokenId).map(found -> {
          if (found.isPresent()) {
            TokenBudget budget = found.get().budget();
            refuseIfOver(budget, found.get().spent(), quote);
            refuseIfPastTheReservationsLimits(budget, found.get().spent(), quote, hoursSoFar, totalSoFar);
          }
          return null;
        }));
  }

  private static void refuseIfPastTheReservationsLimits(TokenBudget budget, TokenBudget.Spent spent, Quote quote,
      int hoursSoFar, long totalSoFar) {
    int hours = hoursSoFar + quote.hours();
    long total = totalSoFar + quote.total().amount();
    String currency = quote.total().currency();
    String why = null;
    if (budget.maxHours() != null && hours > budget.maxHours()) {
      why = "the reservation would run " + hours + " h, longer than the token's " + budget.maxHours() + " h";
    } else if (budget.approvalThreshold() != null && total > budget.approvalThreshold()) {
      why = "the reservation would total " + Money.format(total, currency) + ", above the token's approval threshold of "
          + Money.format(budget.approvalThreshold(), currency) + " (extensions are not sent for approval: the"
          + " account's owner can extend it)";
    }
    if (why != null) {
      JsonObject report = budget.report(spent);
      throw new BudgetExceeded("This token's budget refuses extending by " + quote.hours() + " h: " + why + ".",
          new JsonObject().put("budget", report).put("remaining", report.getJsonObject("remaining"))
              .put("quoted", new JsonObject().put("amount", quote.total().amount()).put("currency", currency)));
    }
  }

  /** Marks what the caller's token made, in the same transaction, so it counts as spent. */
  static Future<Void> attribute(SqlConnection tx, Principal caller, String reservationId, String extensionId) {
    if (caller.tokenId().isEmpty()) {
      return Future.succeededFuture();
    }
    return extensionId == null ? BudgetRepository.reservationBy(tx, reservationId, caller.tokenId().get())
        : BudgetRepository.extensionBy(tx, extensionId, caller.tokenId().get());
  }

  private static void refuseIfOver(TokenBudget budget, TokenBudget.Spent spent, Quote quote) {
    long amount = quote.total().amount();
    String currency = quote.total().currency();
    long gpuHours = (long) quote.gpuCount() * quote.hours();
    long perGpuHour = (amount + gpuHours - 1) / gpuHours;
    String why = null;
    if (!budget.currency().equalsIgnoreCase(currency)) {
      why = "the budget is in " + budget.currency() + " and this quote in " + currency;
    } else if (budget.maxHours() != null && quote.hours() > budget.maxHours()) {
      why = quote.hours() + " h is longer than the token's " + budget.maxHours() + " h";
    } else if (budget.maxPricePerGpuHour() != null && perGpuHour > budget.maxPricePerGpuHour()) {
      why = Money.format(perGpuHour, currency) + " per GPU-hour is above the token's "
          + Money.format(budget.maxPricePerGpuHour(), currency);
    } else if (over(budget.dailyCap(), spent.today(), amount)) {
      why = "today's cap of " + Money.format(budget.dailyCap(), currency) + " would be passed";
    } else if (over(budget.monthlyCap(), spent.thisMonth(), amount)) {
      why = "this month's cap of " + Money.format(budget.monthlyCap(), currency) + " would be passed";
    } else if (over(budget.totalCap(), spent.total(), amount)) {
      why = "the total cap of " + Money.format(budget.totalCap(), currency) + " would be passed";
    }
    if (why != null) {
      JsonObject report = budget.report(spent);
      throw new BudgetExceeded("This token's budget refuses " + Money.format(amount, currency) + ": " + why + ".",
          new JsonObject().put("budget", report).put("remaining", report.getJsonObject("remaining"))
              .put("quoted", new JsonObject().put("amount", amount).put("currency", currency)));
    }
  }

  private static boolean over(Long cap, long spent, long amount) {
    return cap != null && spent + amount > cap;
  }

  /** 403 {@code urn:problem-type:gpu-rental:budget_exceeded}, with the remaining budget. */
  static final class BudgetExceeded extends ApiException {
    private static final long serialVersionUID = 1L;

    BudgetExceeded(String detail, JsonObject extensions) {
      super(403, "budget_exceeded", "Budget exceeded", detail, extensions);
    }
  }
}
