package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.config.HealthConfig;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The GPU health state machine on its own: the moves the rules make and the ones they refuse. */
class GpuHealthTest {
  private static final HealthConfig RULES = new HealthConfig(85, 3, 50, Duration.ofSeconds(600));
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void anIncreaseOfTheErrorCountIsAFaultAndHeatNeverLiftsAFaultyGpuToDegraded() {
    GpuHealth.State state = new GpuHealth.State(GpuHealth.HEALTHY, null, T0, 0, null, 0L);
    state = GpuHealth.next(state, gpu(40, 0L, false), RULES, T0.plusSeconds(10));
    assertEquals(GpuHealth.HEALTHY, state.status());
    for (int i = 1; i <= 3; i++) {
      state = GpuHealth.next(state, gpu(95, 0L, false), RULES, T0.plusSeconds(10 + 10 * i));
    }
    assertEquals(GpuHealth.DEGRADED, state.status());
    assertEquals(T0.plusSeconds(40), state.since());
    state = GpuHealth.next(state, gpu(95, null, true), RULES, T0.plusSeconds(50));
    assertEquals(GpuHealth.FAULTY, state.status());
    assertEquals("row remapping failed", state.reason());
    for (int i = 0; i < 5; i++) {
      state = GpuHealth.next(state, gpu(95, 0L, false), RULES, T0.plusSeconds(60 + 10 * i));
    }
    assertEquals(GpuHealth.FAULTY, state.status(), "still faulty: heat keeps the clean period from starting");
    state = GpuHealth.next(state, gpu(40, 0L, false), RULES, T0.plusSeconds(100 + 599));
    assertEquals(GpuHealth.FAULTY, state.status(), "599 s after the last violation");
    state = GpuHealth.next(state, gpu(40, 0L, false), RULES, T0.plusSeconds(100 + 600));
    assertEquals(GpuHealth.HEALTHY, state.status());
    assertEquals(null, state.reason());
  }

  @Test
  void aNullReadingIsNoViolationAndTheLastErrorCountIsKept() {
    GpuHealth.State state = new GpuHealth.State(GpuHealth.HEALTHY, null, T0, 2, null, 0L);
    state = GpuHealth.next(state, new Telemetry.Gpu(0, null, null, null, null, null, null), RULES, T0);
    assertEquals(GpuHealth.HEALTHY, state.status());
    assertEquals(0, state.hotSamples(), "an unknown temperature breaks the run of hot samples");
    assertEquals(0L, state.eccUncorrected());
  }

  @Test
  void aProcessLeftByAnEndedInstanceMakesTheGpuFaultyUntilItIsClean() {
    GpuHealth.State state = new GpuHealth.State(GpuHealth.HEALTHY, null, T0, 0, null, 0L);
    state = GpuHealth.next(state, new Telemetry.Gpu(0, 40.0, 300.0, 0.0, 512.0, 0L, false, true), RULES, T0);
    assertEquals(GpuHealth.FAULTY, state.status(), "not rented again while the process runs");
    assertEquals("a process of an ended instance still runs on it", state.reason());
    state = GpuHealth.next(state, new Telemetry.Gpu(0, 40.0, 300.0, 0.0, 0.0, 0L, false, false), RULES,
        T0.plusSeconds(600));
    assertEquals(GpuHealth.HEALTHY, state.status(), "clean for the clean period");
  }

  private static Telemetry.Gpu gpu(double temperature, Long ecc, boolean remapFailed) {
    return new Telemetry.Gpu(0, temperature, 300.0, 50.0, 1024.0, ecc, remapFailed);
  }
}
