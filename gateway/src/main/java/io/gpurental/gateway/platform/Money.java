package io.gpurental.gateway.platform;

import io.vertx.core.json.JsonObject;

/** An amount in integer minor units of a currency (e.g. 2100 usd = $21.00). */
public record Money(long amount, String currency) {
  public JsonObject toJson() {
    return new JsonObject().put("amount", amount).put("currency", currency);
  }

  public static Money fromJson(JsonObject json) {
    return new Money(json.getLong("amount"), json.getString("currency"));
  }

  /** For people (logs, event causes): "USD 12.34" (two-decimal currencies). */
  public static String format(long amount, String currency) {
    return currency.toUpperCase(java.util.Locale.ROOT) + " " + (amount < 0 ? "-" : "") + Math.abs(amount) / 100 + "."
        + String.format(java.util.Locale.ROOT, "%02d", Math.abs(amount) % 100);
  }
}
