package io.gpurental.gateway.config;

import java.time.Duration;

/**
 * Host agents: how often they send heartbeats (told to them at enrolment and in every answer),
 * how many intervals without one make a host {@code offline}, the health rules, how long
 * telemetry is kept, and the ready guarantee: how soon after it is due an instance must run before
 * the renter is credited ({@code readyDeadline}), and how long an interrupted instance may stay
 * down before its reservation fails ({@code failureGrace}).
 */
public record FleetConfig(Duration heartbeatInterval, int offlineAfterMissed, HealthConfig health,
    TelemetryConfig telemetry, Duration readyDeadline, Duration failureGrace) {
  /** How long without a heartbeat before a host is offline. */
  public Duration offlineAfter() {
    return heartbeatInterval.multipliedBy(offlineAfterMissed);
  }
}
