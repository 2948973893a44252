package io.gpurental.gateway.pricing;

import io.gpurental.gateway.config.PricingConfig;
import java.time.Instant;
import java.util.List;

/**
 * The operator's terms of sale a quote is priced with: duration discounts, the platform fee, tax
 * and the cancellation fee, in basis points. Stored in {@code pricing_settings}; the configured
 * values only seed it. A quote carries the terms it was priced with, so changing them never
 * touches a quote already given.
 */
public record PriceTerms(List<PricingConfig.DurationDiscount> durationDiscounts, int platformFeeBps, int taxBps,
    int cancellationFeeBps, Instant updatedAt, String updatedBy) {

  public PriceTerms {
    durationDiscounts = List.copyOf(durationDiscounts);
  }

  /** The configured terms (what the database is seeded with). */
  public static PriceTerms fromConfig(PricingConfig pricing, int cancellationFeeBps) {
    return new PriceTerms(pricing.durationDiscounts(), pricing.platformFeeBps(), pricing.taxBps(), cancellationFeeBps,
        null, "config");
  }

  /** The discount for a window of this many hours (the largest threshold reached), in bps. */
  public int discountBpsFor(int hours) {
    int bps = 0;
    for (PricingConfig.DurationDiscount discount : durationDiscounts) {
      if (hours >= discount.minHours() && discount.bps() > bps) {
        bps = discount.bps();
      }
    }
    return bps;
  }
}
