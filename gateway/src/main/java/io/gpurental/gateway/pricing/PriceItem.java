package io.gpurental.gateway.pricing;

import io.gpurental.gateway.platform.Money;
import io.vertx.core.json.JsonObject;

/** One line of a price: base, duration discount (negative), platform fee, tax. */
public record PriceItem(String kind, String description, Money amount) {
  public JsonObject toJson() {
    return new JsonObject().put("kind", kind).put("description", description).put("amount", amount.toJson());
  }

  public static PriceItem fromJson(JsonObject json) {
    return new PriceItem(json.getString("kind"), json.getString("description"),
        Money.fromJson(json.getJsonObject("amount")));
  }
}
