package io.gpurental.agent.facts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What each heartbeat carries (blocking to collect). */
public record Telemetry(double diskFreeGb, Double load1m, List<GpuReading> gpus) {

  public static Telemetry collect(Path stateDir, NvidiaSmi nvidiaSmi) throws IOException {
    double free = Files.getFileStore(stateDir).getUsableSpace() / (1024.0 * 1024 * 1024);
    return new Telemetry(Math.round(free * 10) / 10.0,
        load1m(HostFacts.readOrEmpty(Path.of("/proc/loadavg"))), nvidiaSmi.gpus());
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
