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
}
