package io.gpurental.gateway.config;

import java.time.Duration;

/**
 * Host agents: how often they send heartbeats (told to them at enrolment and in every answer),
 * and how many intervals without one make a host {@code offline}. The ready guarantee: how soon
 * after it is due an instance must run before the renter is credited ({@code readyDeadline}), and
 * how long an interrupted instance may stay down before its reservation fails ({@code failureGrace}).
 */
public record FleetConfig(Duration heartbeatInterval, int offlineAfterMissed, Duration readyDeadline,
    Duration failureGrace) {
  /** The defaults of the ready guarantee: 10 minutes to be ready, 15 minutes of grace. */
  public FleetConfig(Duration heartbeatInterval, int offlineAfterMissed) {
    this(heartbeatInterval, offlineAfterMissed, Duration.ofMinutes(10), Duration.ofMinutes(15));
  }

  /** How long without a heartbeat before a host is offline. */
  public Duration offlineAfter() {
    return heartbeatInterval.multipliedBy(offlineAfterMissed);
  }
}
