package io.gpurental.gateway.config;

import java.time.Duration;

/**
 * Heartbeat telemetry ({@code fleet.telemetry}): raw samples are kept {@code rawRetention},
 * hourly roll-ups {@code rollupRetention}; the roll-up and pruning job runs every {@code rollupEvery}.
 */
public record TelemetryConfig(Duration rawRetention, Duration rollupRetention, Duration rollupEvery) {}
