package io.gpurental.agent.simulated;

import io.gpurental.agent.facts.DiskHealth;
import io.gpurental.agent.facts.GpuReading;
import io.gpurental.agent.facts.Telemetry;
import io.gpurental.agent.facts.TelemetrySource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

/**
 * A made-up GPU server for the simulated runtime: GPUs that warm up and draw power while an
 * instance uses them, a disk, a load average, and {@link Faults} the sandbox sets to make it
 * misbehave. Thread-safe: the agent reads it on worker threads, the sandbox changes it from its
 * own event loop.
 */
public final class SimulatedHost implements TelemetrySource {
  /** The share of wall power a simulated server's power supply delivers to its parts. */
  static final double PSU_EFFICIENCY = 0.94;

  /** One simulated GPU: what nvidia-smi would name it, its memory and its power when idle and busy. */
  public record Gpu(int index, String uuid, String name, long memoryTotalMib, double idleW, double busyW) {
  }

  private final List<Gpu> gpus;
  private final double diskTotalGb;
  private final double baseLoadW;
  private final Map<String, List<Integer>> busy = new HashMap<>();
  private final List<Runnable> held = new ArrayList<>();
  private Faults faults = Faults.HEALTHY;

  public SimulatedHost(List<Gpu> gpus, double diskTotalGb, double baseLoadW) {
    this.gpus = List.copyOf(gpus);
    this.diskTotalGb = diskTotalGb;
    this.baseLoadW = baseLoadW;
  }

  public List<Gpu> gpus() {
    return gpus;
  }

  public synchronized Faults faults() {
    return faults;
  }

  /** Changes the faults; starts held until now finish when the new faults no longer hold them. */
  public Faults update(UnaryOperator<Faults> change) {
    List<Runnable> release;
    Faults now;
    synchronized (this) {
      faults = change.apply(faults);
      now = faults;
      release = now.provisioningHeld() ? List.of() : List.copyOf(held);
      if (!now.provisioningHeld()) {
        held.clear();
      }
    }
    release.forEach(Runnable::run);
    return now;
  }

  /** Back to healthy; held starts finish. */
  public Faults reset() {
    return update(f -> Faults.HEALTHY);
  }

  public boolean heartbeatsStopped() {
    return faults().heartbeatsStopped();
  }

  /** How the next start goes; a failure counts down. */
  public synchronized Provisioning nextStart() {
    Faults.FailProvisioning fail = faults.failProvisioning();
    if (fail != null) {
      Faults.FailProvisioning left = fail.remaining() > 1 ? new Faults.FailProvisioning(fail.reason(), fail.remaining() - 1) : null;
      faults = new Faults(faults.heartbeatsStopped(), faults.gpus(), faults.diskFreeGb(), faults.diskHealth(), left,
          faults.provisioningDelayMs(), faults.provisioningHeld());
      return new Provisioning(fail.reason(), null, false);
    }
    return new Provisioning(null, faults.provisioningDelayMs(), faults.provisioningHeld());
  }

  /** The plan for one start: fail with a reason, take a given time, or wait for a release. */
  public record Provisioning(String failReason, Long delayMs, boolean held) {
  }

  /** Runs {@code release} once starts are no longer held (at once if they are not now). */
  public void whenReleased(Runnable release) {
    synchronized (this) {
      if (faults.provisioningHeld()) {
        held.add(release);
        return;
      }
    }
    release.run();
  }

  /** An instance now uses these GPUs (they warm up and draw power). */
  public synchronized void busy(String instanceId, List<Integer> indices) {
    busy.put(instanceId, List.copyOf(indices));
  }

  public synchronized void idle(String instanceId) {
    busy.remove(instanceId);
  }

  @Override
  public synchronized Telemetry collect() {
    List<Integer> inUse = busy.values().stream().flatMap(List::stream).toList();
    List<GpuReading> readings = new ArrayList<>();
    for (Gpu gpu : gpus) {
      readings.add(reading(gpu, inUse.contains(gpu.index()), faults.gpus().get(gpu.index())));
    }
    Telemetry.Power power = Telemetry.power(bmcWatts(readings), readings, baseLoadW);
    double diskFree = faults.diskFreeGb() != null ? faults.diskFreeGb() : Math.round(diskTotalGb * 0.8 * 10) / 10.0;
    double load = Math.round((0.2 + 1.5 * inUse.size()) * 100) / 100.0;
    return new Telemetry(diskFree, load, readings, power.watts(), power.source(),
        faults.diskHealth() != null ? faults.diskHealth() : DiskHealth.PASSED, null);
  }

  /**
   * What the simulated server's BMC reads at the wall: its GPUs and base load through a power
   * supply of {@link #PSU_EFFICIENCY}, so the demo's energy figures come from "measured" power as a
   * real server's do.
   */
  private Double bmcWatts(List<GpuReading> readings) {
    if (readings.stream().anyMatch(r -> r.powerDrawW() == null)) {
      return null;
    }
    double dc = baseLoadW + readings.stream().mapToDouble(GpuReading::powerDrawW).sum();
    return Math.round(dc / PSU_EFFICIENCY * 10) / 10.0;
  }

  private static GpuReading reading(Gpu gpu, boolean inUse, Faults.GpuFault fault) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long temperature = (inUse ? 68 : 34) + gpu.index() % 3 + random.nextInt(2);
    double power = Math.round((inUse ? gpu.busyW() * 0.85 : gpu.idleW()) * (0.97 + 0.06 * random.nextDouble()) * 10) / 10.0;
    long utilization = inUse ? 88 + random.nextInt(10) : 0;
    long memoryUsed = inUse ? gpu.memoryTotalMib() * 6 / 10 : 1;
    Long ecc = 0L;
    Boolean remapFailure = false;
    if (fault != null) {
      temperature = fault.temperatureC() != null ? fault.temperatureC() : temperature;
      ecc = fault.eccUncorrected() != null ? fault.eccUncorrected() : ecc;
      remapFailure = fault.remappedRowsFailure() != null ? fault.remappedRowsFailure() : remapFailure;
    }
    return new GpuReading(gpu.index(), gpu.uuid(), gpu.name(), temperature, power, utilization, memoryUsed,
        gpu.memoryTotalMib(), ecc, remapFailure);
  }
}
