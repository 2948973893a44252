package io.gpurental.gateway.agents;

import io.gpurental.gateway.catalog.CatalogQueries;
import io.gpurental.gateway.pricing.Quote;
import io.gpurental.gateway.pricing.QuotesApi;
import io.gpurental.gateway.pricing.Window;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code list_gpu_models}, {@code search_offers}, {@code get_offer}, {@code get_quote}: the
 * catalog's own queries and the quotes of {@code POST /quotes} (with its {@code image} and {@code ports}). Arguments reach the catalog as the
 * query parameters of {@code GET /offers} they are named after, so filters, defaults and checks
 * are the REST API's.
 */
final class CatalogTools {
  private final CatalogQueries catalog;
  private final QuotesApi quotes;
  private final int maxHours;

  CatalogTools(CatalogQueries catalog, QuotesApi quotes, int maxHours) {
    this.catalog = catalog;
    this.quotes = quotes;
    this.maxHours = maxHours;
  }

  Map<String, ToolCalls.Work> work() {
    return Map.of(
        "list_gpu_models", call -> catalog.gpuModels(),
        "search_offers", call -> catalog.search(query(call.args())),
        "get_offer", call -> catalog.offer(call.args().getString("offer_id"), query(call.args())),
        "get_quote", this::quote);
  }

  private Future<JsonObject> quote(ToolCalls.Call call) {
    JsonObject args = call.args();
    Window window = Window.parse(args.getString("start"), args.getInteger("hours", 1), maxHours, "#/");
    return quotes.quote(args.getString("offer_id"), args.getInteger("gpu_count"), window, args.getString("image"),
        QuotesApi.ports(args.getJsonArray("ports")), "#/").map(Quote::toJson);
  }

  /** An argument as the query string would carry it (numbers and booleans as text). */
  private static Function<String, String> query(JsonObject args) {
    return name -> {
      Object value = args.getValue(name);
      return value == null ? null : value.toString();
    };
  }
}
