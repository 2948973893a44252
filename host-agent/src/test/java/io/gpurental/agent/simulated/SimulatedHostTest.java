package io.gpurental.agent.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.facts.GpuReading;
import io.gpurental.agent.facts.Telemetry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The simulated host's telemetry and how its faults change it and its starts. */
class SimulatedHostTest {
  private final SimulatedHost host = new SimulatedHost(List.of(
      new SimulatedHost.Gpu(0, "GPU-a", "NVIDIA L40S", 46068, 35, 350),
      new SimulatedHost.Gpu(1, "GPU-b", "NVIDIA L40S", 46068, 35, 350)), 15360, 150);

  @Test
  void healthyTelemetryHasTheSimulatedBmcsWallPowerAndPassingDisks() {
    Telemetry idle = host.collect();
    assertEquals(2, idle.gpus().size());
    assertEquals("measured", idle.powerSource());
    double gpus = idle.gpus().stream().mapToDouble(GpuReading::powerDrawW).sum();
    assertEquals((150 + gpus) / 0.94, idle.powerW(), 0.11, "GPUs and base load through a 94 % power supply");
    assertEquals("passed", idle.diskHealth());
    assertEquals(12288.0, idle.diskFreeGb());
    host.busy("rsv_a", List.of(1));
    Telemetry busy = host.collect();
    assertTrue(busy.gpus().get(1).powerDrawW() > 200 && busy.gpus().get(1).utilizationPct() > 80, "a used GPU works");
    assertEquals(0L, busy.gpus().get(0).utilizationPct());
  }

  @Test
  void faultsReplaceReadings() {
    host.update(f -> new Faults(true, Map.of(1, new Faults.GpuFault(97L, 3L, true)), 4.5, "failed", null, null, false));
    Telemetry t = host.collect();
    assertEquals(97L, t.gpus().get(1).temperatureC());
    assertEquals(3L, t.gpus().get(1).eccUncorrected());
    assertEquals(true, t.gpus().get(1).remappedRowsFailure());
    assertEquals(0L, t.gpus().get(0).eccUncorrected());
    assertEquals(4.5, t.diskFreeGb());
    assertEquals("failed", t.diskHealth());
    assertTrue(host.heartbeatsStopped());
    host.reset();
    assertFalse(host.heartbeatsStopped());
    assertEquals(0L, host.collect().gpus().get(1).eccUncorrected());
  }

  @Test
  void failuresCountDownAndHeldStartsWaitForTheRelease() {
    host.update(f -> new Faults(false, Map.of(), null, null, new Faults.FailProvisioning("gpu_unavailable", 2), null, true));
    assertEquals("gpu_unavailable", host.nextStart().failReason());
    assertEquals("gpu_unavailable", host.nextStart().failReason());
    SimulatedHost.Provisioning third = host.nextStart();
    assertNull(third.failReason());
    assertTrue(third.held());
    AtomicInteger released = new AtomicInteger();
    host.whenReleased(released::incrementAndGet);
    host.update(f -> new Faults(false, Map.of(), null, null, null, 100L, true));
    assertEquals(0, released.get(), "still held");
    host.update(f -> new Faults(false, Map.of(), null, null, null, 100L, false));
    assertEquals(1, released.get());
    assertEquals(100L, host.nextStart().delayMs());
  }
}
