package io.gpurental.agent.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** power_w: measured when the BMC tells, else GPUs plus base load, else unknown. */
class TelemetryPowerTest {
  private static GpuReading gpu(int index, Double watts) {
    return new GpuReading(index, "GPU-" + index, "NVIDIA H100 80GB HBM3", 40L, watts, 0L, 0L, 81559L, 0L, false);
  }

  @Test
  void theBmcsReadingWins() {
    assertEquals(new Telemetry.Power(312.0, "measured"), Telemetry.power(312.0, List.of(gpu(0, 69.85)), 150));
  }

  @Test
  void elseEveryGpuPlusTheBaseLoad() {
    assertEquals(new Telemetry.Power(291.0, "estimated"),
        Telemetry.power(null, List.of(gpu(0, 69.85), gpu(1, 71.15)), 150));
  }

  @Test
  void elseUnknown() {
    assertEquals(new Telemetry.Power(null, null), Telemetry.power(null, List.of(gpu(0, 69.85), gpu(1, null)), 150));
    assertEquals(new Telemetry.Power(null, null), Telemetry.power(null, List.of(), 150));
  }
}
