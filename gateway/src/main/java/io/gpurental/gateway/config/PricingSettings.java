package io.gpurental.gateway.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Maps the {@code pricing.*} settings. */
public final class PricingSettings {
  /** Development only: sandbox quotes are signed with this when no key is configured. */
  public static final String SANDBOX_QUOTE_KEY = "sandbox-quote-signing-key-not-for-production";

  private PricingSettings() {}

  static PricingConfig pricing(Settings s, Mode mode) {
    String currency = s.nonBlank("pricing.currency");
    if (!currency.matches("[a-z]{3}")) {
      throw new ConfigException("pricing.currency", "must be a lower-case ISO 4217 code like usd (got '" + currency + "')");
    }
    String key = s.string("pricing.quote_signing_key");
    if (key.isEmpty()) {
      if (mode == Mode.PRODUCTION) {
        throw new ConfigException("pricing.quote_signing_key", "is required in production: set "
            + ConfigLoader.environmentVariable("pricing.quote_signing_key") + " (the same on every node)");
      }
      key = SANDBOX_QUOTE_KEY;
    } else if (key.length() < 32) {
      throw new ConfigException("pricing.quote_signing_key", "must be at least 32 characters");
    }
    return new PricingConfig(currency,
        s.intBetween("pricing.platform_fee_bps", 0, 10_000),
        s.intBetween("pricing.tax_bps", 0, 10_000),
        discounts(s.list("pricing.duration_discounts")),
        Duration.ofMinutes(s.intBetween("pricing.quote_ttl_minutes", 1, 24 * 60)),
        key,
        s.intBetween("pricing.max_hours", 1, 24 * 366),
        Duration.ofSeconds(s.intBetween("pricing.search_cache_seconds", 1, 3600)),
        // under the hour for which a search trusts an offer's precomputed uptime (V24)
        Duration.ofMinutes(s.intBetween("pricing.offer_figures_refresh_minutes", 1, 59)));
  }

  private static List<PricingConfig.DurationDiscount> discounts(List<String> entries) {
    List<PricingConfig.DurationDiscount> discounts = new ArrayList<>();
    for (String entry : entries) {
      String[] parts = entry.split(":");
      try {
        int hours = Integer.parseInt(parts[0].trim());
        int bps = Integer.parseInt(parts[1].trim());
        if (parts.length != 2 || hours < 1 || bps < 0 || bps >= 10_000) {
          throw new NumberFormatException();
        }
        discounts.add(new PricingConfig.DurationDiscount(hours, bps));
      } catch (RuntimeException e) {
        throw new ConfigException("pricing.duration_discounts",
            "'" + entry + "' must be hours:basis_points, e.g. 24:500 (5 % from 24 h)");
      }
    }
    return List.copyOf(discounts);
  }
}
