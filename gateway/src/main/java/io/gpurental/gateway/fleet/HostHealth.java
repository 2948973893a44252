package io.gpurental.gateway.fleet;

import io.gpurental.gateway.config.HealthConfig;
import java.time.Instant;
import java.util.Optional;

/**
 * The host's own health rule (disk free below the limit degrades it) as moves of the one host
 * lifecycle: active to degraded on a violation, degraded back to active after the clean period
 * without one. Missed heartbeats (offline) are the mark-offline job's.
 */
final class HostHealth {
  private HostHealth() {}

  /** What a sample means for the host: the violation (if any) and the move (if any). */
  record Verdict(String violation, Optional<String> move) {}

  static Verdict judge(String status, Instant lastViolationAt, Telemetry sample, HealthConfig rules, Instant now) {
    Double free = sample.diskFreeGb();
    String violation = free != null && free < rules.diskFreeMinGb()
        ? "disk free " + free + " GB below the limit of " + rules.diskFreeMinGb() + " GB" : null;
    if (violation != null && HostLifecycle.ACTIVE.equals(status)) {
      return new Verdict(violation, Optional.of(HostLifecycle.DEGRADED));
    }
    boolean clean = lastViolationAt == null || !lastViolationAt.plus(rules.cleanPeriod()).isAfter(now);
    if (violation == null && HostLifecycle.DEGRADED.equals(status) && clean) {
      return new Verdict(null, Optional.of(HostLifecycle.ACTIVE));
    }
    return new Verdict(violation, Optional.empty());
  }
}
