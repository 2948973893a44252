package io.gpurental.gateway.payments;

import io.vertx.core.json.JsonObject;

/**
 * A locked price (the quote's items and total) in the parts money is booked to: GPU hours after
 * any duration discount, the platform fee, and tax.
 */
record PriceParts(long gpuHours, long platformFee, long tax, long total) {

  static PriceParts of(JsonObject price) {
    long gpuHours = 0;
    long fee = 0;
    long tax = 0;
    for (Object entry : price.getJsonArray("items")) {
      JsonObject item = (JsonObject) entry;
      long amount = item.getJsonObject("amount").getLong("amount");
      switch (item.getString("kind")) {
        case "platform_fee" -> fee += amount;
        case "tax" -> tax += amount;
        default -> gpuHours += amount;
      }
    }
    return new PriceParts(gpuHours, fee, tax, price.getJsonObject("total").getLong("amount"));
  }

  /** The parts add up to the total (a price written by this gateway always does). */
  boolean consistent() {
    return gpuHours + platformFee + tax == total;
  }
}
