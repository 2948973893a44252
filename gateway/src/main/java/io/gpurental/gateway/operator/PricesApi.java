package io.gpurental.gateway.operator;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.catalog.Offers;
import io.gpurental.gateway.catalog.Prices;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code PUT /operator/offers/{id}/price}, {@code PUT /operator/default-prices/{model}/{site}} and
 * {@code GET /operator/prices}: the operator sets prices through the catalog's {@link Prices} port.
 */
final class PricesApi {
  private final Prices prices;

  PricesApi(Prices prices) {
    this.prices = prices;
  }

  void bind(RouterBuilder api) {
    api.getRoute("setOfferPrice").addHandler(ctx -> prices.setForOffer(ctx.pathParam("offer_id"), change(ctx))
        .onSuccess(row -> ctx.json(row(row).put("offer_id", row.offerId()))).onFailure(ctx::fail));
    api.getRoute("setDefaultPrice").addHandler(ctx -> prices.setDefault(ctx.pathParam("gpu_model"),
            ctx.pathParam("site_id"), change(ctx))
        .onSuccess(row -> ctx.json(row(row).put("gpu_model", row.gpuModel()).put("site_id", row.siteId())))
        .onFailure(ctx::fail));
    api.getRoute("listPrices").addHandler(ctx -> prices.list().onSuccess(listing -> ctx.json(new JsonObject()
        .put("data", targets(listing)).put("next_cursor", null))).onFailure(ctx::fail));
  }

  private static Prices.Change change(RoutingContext ctx) {
    JsonObject body = ctx.body().asJsonObject();
    Optional<Instant> at = Optional.ofNullable(body.getString("effective_at")).map(text -> {
      try {
        return OffsetDateTime.parse(text).toInstant();
      } catch (DateTimeParseException e) {
        throw new Invalid("effective_at is not an RFC 3339 date-time.",
            List.of(new Invalid.FieldError("#/effective_at", "use e.g. 2026-12-01T09:00:00Z")));
      }
    });
    return new Prices.Change(new Offers.Price(body.getLong("amount"), body.getString("currency")), at,
        "account:" + Principal.required(ctx).accountId());
  }

  /** Open offers first (each with the price that applies to it), then the model-and-site defaults. */
  private static JsonArray targets(Prices.Listing listing) {
    Map<String, JsonObject> defaults = new LinkedHashMap<>();
    Map<String, JsonObject> offers = new LinkedHashMap<>();
    listing.offers().forEach(offer -> offers.put(offer.offerId(), new JsonObject().put("kind", "offer")
        .put("offer_id", offer.offerId()).put("host_name", offer.hostName()).put("gpu_model", offer.gpuModel())
        .put("site_id", offer.siteId()).put("site_name", offer.siteName())
        .put("applies", offer.applies().map(price -> new JsonObject().put("price", money(price))
            .put("source", offer.ownPrice() ? "offer" : "default")
            .put("effective_from", offer.appliesFrom().toString())).orElse(null))
        .put("current", null).put("scheduled", new JsonArray())));
    for (Prices.PriceRow price : listing.prices()) {
      JsonObject target = price.offerId() != null ? offers.get(price.offerId())
          : defaults.computeIfAbsent(price.gpuModel() + "@" + price.siteId(), key -> new JsonObject()
              .put("kind", "default").put("gpu_model", price.gpuModel()).put("site_id", price.siteId())
              .put("current", null).put("scheduled", new JsonArray()));
      if (target == null) {
        continue; // a closed offer's prices
      }
      if (price.scheduled()) {
        target.getJsonArray("scheduled").add(row(price));
      } else {
        target.put("current", row(price));
      }
    }
    JsonArray data = new JsonArray();
    offers.values().forEach(data::add);
    defaults.values().forEach(data::add);
    return data;
  }

  private static JsonObject row(Prices.PriceRow row) {
    return new JsonObject().put("price", money(row.price())).put("effective_from", row.effectiveFrom().toString())
        .put("status", row.scheduled() ? "scheduled" : "current")
        .put("set_by", row.setBy()).put("set_at", row.setAt().toString());
  }

  private static JsonObject money(Offers.Price price) {
    return new JsonObject().put("amount", price.amount()).put("currency", price.currency());
  }
}
