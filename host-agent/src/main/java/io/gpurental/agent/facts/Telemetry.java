package io.gpurental.agent.facts;

import java.util.List;

/**
 * What each heartbeat carries. {@code powerW} is the server's wall power, {@code powerSource}
 * {@code measured} (the BMC) or {@code estimated} (GPUs plus base load), both null when unknown;
 * {@code diskHealth} is SMART's overall verdict ({@code passed}, {@code failed}, null); {@code
 * rttMs} is the previous heartbeat's round trip.
 */
public record Telemetry(double diskFreeGb, Double load1m, List<GpuReading> gpus, Double powerW,
    String powerSource, String diskHealth, Long rttMs) {

  public static final String MEASURED = "measured";
  public static final String ESTIMATED = "estimated";

  /** The server's power and where the figure came from. */
  public record Power(Double watts, String source) {
    static final Power UNKNOWN = new Power(null, null);
  }

  /**
   * The BMC's reading when there is one; else every GPU's draw plus the base load (the CPUs,
   * fans, disks nvidia-smi does not see); else unknown: a GPU without a reading would make the
   * sum a guess.
   */
  public static Power power(Double measuredW, List<GpuReading> gpus, double baseLoadW) {
    if (measuredW != null) {
      return new Power(measuredW, MEASURED);
    }
    if (gpus.isEmpty() || gpus.stream().anyMatch(g -> g.powerDrawW() == null)) {
      return Power.UNKNOWN;
    }
    double sum = baseLoadW + gpus.stream().mapToDouble(GpuReading::powerDrawW).sum();
    return new Power(Math.round(sum * 10) / 10.0, ESTIMATED);
  }

  public Telemetry withRttMs(Long rtt) {
    return new Telemetry(diskFreeGb, load1m, gpus, powerW, powerSource, diskHealth, rtt);
  }

  /** The first of /proc/loadavg's three averages. */
  static Double load1m(String loadavg) {
    String[] parts = loadavg.strip().split("\\s+");
    try {
      return parts.length > 0 ? Double.valueOf(parts[0]) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
