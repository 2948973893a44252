package io.gpurental.gateway.auth.tokens;

import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;

/**
 * What an API token may spend, in minor units of {@code currency}; a null cap is no cap. The
 * reservations feature enforces it (its quotes, its spending); auth stores and reports it.
 */
public record TokenBudget(String currency, Long dailyCap, Long monthlyCap, Long totalCap, Long maxPricePerGpuHour,
    Integer maxHours, Long approvalThreshold) {

  /** What a token's reservations and extensions have spent (held or paid, less refunds). */
  public record Spent(long today, long thisMonth, long total) {}

  /** From a {@code TokenBudget} request body (validated against the contract). */
  /** A budget as stored: a token's ({@code token_budgets}) and an account's default have the same columns. */
  static TokenBudget fromRow(Row row) {
    return new TokenBudget(row.getString("currency"), row.getLong("daily_cap"), row.getLong("monthly_cap"),
        row.getLong("total_cap"), row.getLong("max_price_per_gpu_hour"), row.getInteger("max_hours"),
        row.getLong("approval_threshold"));
  }

  public static TokenBudget fromJson(String currency, JsonObject body) {
    return new TokenBudget(currency, body.getLong("daily_cap"), body.getLong("monthly_cap"), body.getLong("total_cap"),
        body.getLong("max_price_per_gpu_hour"), body.getInteger("max_hours"), body.getLong("approval_threshold"));
  }

  public JsonObject toJson() {
    return new JsonObject().put("currency", currency).put("daily_cap", dailyCap).put("monthly_cap", monthlyCap)
        .put("total_cap", totalCap).put("max_price_per_gpu_hour", maxPricePerGpuHour).put("max_hours", maxHours)
        .put("approval_threshold", approvalThreshold);
  }

  /** The budget, what was spent and what remains per cap (null where there is none). */
  public JsonObject report(Spent spent) {
    return toJson()
        .put("spent", new JsonObject().put("today", spent.today()).put("this_month", spent.thisMonth())
            .put("total", spent.total()))
        .put("remaining", new JsonObject().put("today", left(dailyCap, spent.today()))
            .put("this_month", left(monthlyCap, spent.thisMonth())).put("total", left(totalCap, spent.total())));
  }

  private static Long left(Long cap, long spent) {
    return cap == null ? null : Math.max(0, cap - spent);
  }
}
