package io.gpurental.gateway.config;

import java.time.Duration;
import java.util.List;

/** How prices are computed and quoted. Amounts are integer minor units; rates are basis points. */
public record PricingConfig(
    String currency,
    int platformFeeBps,
    int taxBps,
    List<DurationDiscount> durationDiscounts,
    Duration quoteTtl,
    String quoteSigningKey,
    int maxHours,
    Duration searchCacheLifetime,
    Duration offerFiguresRefresh) {

  /** From {@code minHours} of booking on, {@code bps} off the base price. */
  public record DurationDiscount(int minHours, int bps) {}

  /** The discount for a window of this many hours (the largest threshold reached), in bps. */
  public int discountBpsFor(int hours) {
    int bps = 0;
    for (DurationDiscount discount : durationDiscounts) {
      if (hours >= discount.minHours() && discount.bps() > bps) {
        bps = discount.bps();
      }
    }
    return bps;
  }
}
