package io.gpurental.gateway.config;

import java.time.Duration;

/**
 * Host agents: how often they send heartbeats (told to them at enrolment and in every answer),
 * how many intervals without one make a host {@code offline}, the health rules and how long
 * telemetry is kept.
 */
public record FleetConfig(Duration heartbeatInterval, int offlineAfterMissed, HealthConfig health,
    TelemetryConfig telemetry) {
  /** How long without a heartbeat before a host is offline. */
  public Duration offlineAfter() {
    return heartbeatInterval.multipliedBy(offlineAfterMissed);
  }
}
