package io.gpurental.gateway.config;

import java.time.Duration;

/** Reads {@code fleet.health} and {@code fleet.telemetry}. */
final class FleetHealthSettings {
  private FleetHealthSettings() {}

  static HealthConfig health(Settings s) {
    return new HealthConfig(s.intBetween("fleet.health.gpu_temperature_limit_c", 30, 150),
        s.intBetween("fleet.health.gpu_temperature_samples", 1, 1000),
        s.intBetween("fleet.health.disk_free_min_gb", 0, 1_000_000),
        Duration.ofSeconds(s.intBetween("fleet.health.clean_period_seconds", 0, 7 * 24 * 3600)));
  }

  static TelemetryConfig telemetry(Settings s) {
    return new TelemetryConfig(Duration.ofHours(s.intBetween("fleet.telemetry.raw_retention_hours", 2, 24 * 31)),
        Duration.ofDays(s.intBetween("fleet.telemetry.rollup_retention_days", 1, 3660)),
        Duration.ofSeconds(s.intBetween("fleet.telemetry.rollup_interval_seconds", 1, 3600)));
  }
}
