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
    if (mode == Mode.PRODUCTION) {
      requireProductionKeys(key, webhookSecret);
    }
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

  /** Without both, payments could never be taken or confirmed. Values are never echoed: they are secrets. */
  private static void requireProductionKeys(String key, String webhookSecret) {
    if (key.isEmpty()) {
      throw new ConfigException("stripe.secret_key", "is required in production: set "
          + ConfigLoader.environmentVariable("stripe.secret_key") + " to your Stripe secret key (sk_…) or restricted key (rk_…)");
    }
    if (!key.startsWith("sk_") && !key.startsWith("rk_")) {
      throw new ConfigException("stripe.secret_key", "must be a Stripe secret key (sk_…) or restricted key (rk_…)");
    }
    if (webhookSecret.isEmpty()) {
      throw new ConfigException("stripe.webhook_secret", "is required in production: set "
          + ConfigLoader.environmentVariable("stripe.webhook_secret")
          + " to the signing secret (whsec_…) of the webhook endpoint in the Stripe dashboard");
    }
    if (!webhookSecret.startsWith("whsec_")) {
      throw new ConfigException("stripe.webhook_secret", "must be a Stripe webhook signing secret (whsec_…)");
    }
  }
}
