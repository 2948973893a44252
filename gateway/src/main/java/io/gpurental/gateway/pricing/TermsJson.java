package io.gpurental.gateway.pricing;

import io.gpurental.gateway.config.PricingConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The terms of sale as the operator API shows and takes them (and as the audit log keeps them). */
public final class TermsJson {
  private TermsJson() {}

  public static JsonObject of(PriceTerms terms) {
    JsonArray discounts = new JsonArray();
    terms.durationDiscounts().stream().sorted(Comparator.comparingInt(PricingConfig.DurationDiscount::minHours))
        .forEach(d -> discounts.add(new JsonObject().put("min_hours", d.minHours()).put("discount_bps", d.bps())));
    return new JsonObject()
        .put("duration_discounts", discounts)
        .put("platform_fee_bps", terms.platformFeeBps())
        .put("tax_bps", terms.taxBps())
        .put("cancellation_fee_bps", terms.cancellationFeeBps())
        .put("updated_at", terms.updatedAt() == null ? null : terms.updatedAt().toString())
        .put("updated_by", terms.updatedBy());
  }

  /** The terms of a request body the contract has already validated. */
  public static PriceTerms from(JsonObject body) {
    List<PricingConfig.DurationDiscount> discounts = new ArrayList<>();
    body.getJsonArray("duration_discounts").forEach(entry -> discounts.add(new PricingConfig.DurationDiscount(
        ((JsonObject) entry).getInteger("min_hours"), ((JsonObject) entry).getInteger("discount_bps"))));
    return new PriceTerms(discounts, body.getInteger("platform_fee_bps"), body.getInteger("tax_bps"),
        body.getInteger("cancellation_fee_bps"), null, null);
  }
}
