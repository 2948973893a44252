package io.gpurental.gateway.config;

import java.net.URI;
import java.time.Duration;

/**
 * Stripe: the secret key, where its API is (the real one, or the built-in sandbox), and the
 * webhook secret and endpoint, and how often (and how far back) missed events are looked for. {@code sandbox} when the built-in stand-in serves it.
 */
public record StripeConfig(String secretKey, URI apiBase, String webhookSecret, URI webhookUrl, boolean sandbox,
    Duration reconcileInterval, Duration reconcileLookback) {}
