package io.gpurental.gateway.pricing;

import io.gpurental.gateway.config.PricingSettings;
import java.time.Instant;

/** Signs quote ids as a sandbox gateway does, to make ones the API could have issued. */
public final class QuoteIdsForTests {
  private QuoteIdsForTests() {}

  /** A correctly signed id whose validity ended a minute ago. */
  public static String signedExpiredId() {
    return new QuoteIds(PricingSettings.SANDBOX_QUOTE_KEY).issue(Instant.now().minusSeconds(60)).value();
  }
}
