package io.gpurental.gateway.config;

/**
 * Sandbox mode's own settings: whether a non-loopback listener is allowed ({@code allow_public}),
 * and whether the first start seeds the demo fleet's last 30 days of history
 * ({@code seed_history}; the test harness turns it off so tests start from an empty history).
 */
public record SandboxConfig(boolean allowPublic, boolean seedHistory) {}
