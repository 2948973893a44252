package io.gpurental.gateway.config;

import java.net.URI;
import java.time.Duration;

/** Maps {@code stripe.*}: in sandbox mode, the built-in stand-in unless keys are configured. */
final class StripeSettings {
  static final String SANDBOX_SECRET_KEY = "sk_test_sandbox_51GatewayOfflineStandIn";
  static final String SANDBOX_WEBHOOK_SECRET = "whsec_sandbox_gateway_offline_stand_in";
  private static final URI STRIPE_API = URI.create("https://api.stripe.com");

  private StripeSettings() {}

  static StripeConfig stripe(Settings s, Mode mode, URI publicUrl) {
    String base = publicUrl.toString().replaceAll("/+$", "");
    URI webhookUrl = s.string("stripe.webhook_url").isEmpty() ? URI.create(base + "/api/v1/stripe/webhook")
        : s.url("stripe.webhook_url", "http", "https");
    String key = s.string("stripe.secret_key");
    String webhookSecret = s.string("stripe.webhook_secret");
    Duration reconcileEvery = Duration.ofSeconds(s.intBetween("stripe.reconcile_interval_seconds", 1, 86_400));
    Duration lookback = Duration.ofHours(s.intBetween("stripe.reconcile_lookback_hours", 1, 24 * 30));
    if (mode == Mode.SANDBOX) {
      if (key.startsWith("sk_live_") || key.startsWith("rk_live_")) {
        throw new ConfigException("stripe.secret_key", "a live Stripe key is refused in sandbox mode");
      }
      if (key.isEmpty()) {
        return new StripeConfig(SANDBOX_SECRET_KEY, URI.create(base + "/sandbox/stripe"), SANDBOX_WEBHOOK_SECRET,
            webhookUrl, true, reconcileEvery, lookback);
      }
    }
    return new StripeConfig(key, STRIPE_API, webhookSecret, webhookUrl, false, reconcileEvery, lookback);
  }
}
