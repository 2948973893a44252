package io.gpurental.gateway.pricing;

import io.gpurental.gateway.platform.Money;
import io.vertx.core.json.JsonArray;
import java.util.List;

/** The itemised price of a window: what is charged, line by line, and the total. */
public record PriceBreakdown(List<PriceItem> items, Money total, Money allInPerGpuHour) {
  public JsonArray itemsJson() {
    JsonArray array = new JsonArray();
    items.forEach(item -> array.add(item.toJson()));
    return array;
  }
}
