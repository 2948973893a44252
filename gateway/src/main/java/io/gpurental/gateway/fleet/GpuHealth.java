package io.gpurental.gateway.fleet;

import io.gpurental.gateway.config.HealthConfig;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * The one state machine of a GPU's health, driven by its samples: too hot for
 * {@code gpu_temperature_samples} samples in a row makes it degraded; uncorrected ECC errors (any,
 * or more than before) or a failed row remapping make it faulty; it is healthy again only after
 * the clean period without a violation (a sample above the limit, or a fault). A degraded GPU
 * may turn faulty; heat alone never lifts a faulty GPU to degraded.
 */
final class GpuHealth {
  static final String HEALTHY = "healthy";
  static final String DEGRADED = "degraded";
  static final String FAULTY = "faulty";

  private static final Map<String, Set<String>> MOVES = Map.of(
      HEALTHY, Set.of(DEGRADED, FAULTY),
      DEGRADED, Set.of(FAULTY, HEALTHY),
      FAULTY, Set.of(HEALTHY));

  private GpuHealth() {}

  /** A GPU's health and what the rules remember of its earlier samples. */
  record State(String status, String reason, Instant since, int hotSamples, Instant lastViolationAt,
      Long eccUncorrected) {
    static State initial(Instant now) {
      return new State(HEALTHY, null, now, 0, null, null);
    }
  }

  static boolean allows(String from, String to) {
    return MOVES.getOrDefault(from, Set.of()).contains(to);
  }

  /** The state after {@code sample} arrived at {@code now}. */
  static State next(State state, Telemetry.Gpu sample, HealthConfig rules, Instant now) {
    Double temperature = sample.temperatureC();
    boolean hot = temperature != null && temperature > rules.gpuTemperatureLimitC();
    int hotSamples = hot ? state.hotSamples() + 1 : 0;
    String fault = fault(state, sample);
    Instant lastViolation = fault != null || hot ? now : state.lastViolationAt();
    String target;
    String reason;
    if (fault != null) {
      target = FAULTY;
      reason = fault;
    } else if (hotSamples >= rules.gpuTemperatureSamples() && !FAULTY.equals(state.status())) {
      target = DEGRADED;
      reason = "temperature " + format(temperature) + " °C above the limit of " + rules.gpuTemperatureLimitC()
          + " °C for " + hotSamples + " samples in a row";
    } else if (!HEALTHY.equals(state.status()) && clean(lastViolation, rules, now)) {
      target = HEALTHY;
      reason = null;
    } else {
      target = state.status();
      reason = state.reason();
    }
    Long ecc = sample.eccUncorrected() != null ? sample.eccUncorrected() : state.eccUncorrected();
    if (target.equals(state.status()) || !allows(state.status(), target)) {
      return new State(state.status(), state.reason(), state.since(), hotSamples, lastViolation, ecc);
    }
    return new State(target, reason, now, hotSamples, lastViolation, ecc);
  }

  private static String fault(State state, Telemetry.Gpu sample) {
    Long ecc = sample.eccUncorrected();
    if (ecc != null && (ecc > 0 || (state.eccUncorrected() != null && ecc > state.eccUncorrected()))) {
      return "uncorrected ECC errors: " + ecc;
    }
    if (Boolean.TRUE.equals(sample.remappedRowsFailure())) {
      return "row remapping failed";
    }
    if (Boolean.TRUE.equals(sample.leftoverProcesses())) {
      // an ended instance's process still holds it: a new renter would share the GPU with it
      return "a process of an ended instance still runs on it";
    }
    return null;
  }

  private static boolean clean(Instant lastViolation, HealthConfig rules, Instant now) {
    return lastViolation == null || !lastViolation.plus(rules.cleanPeriod()).isAfter(now);
  }

  private static String format(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }
}
