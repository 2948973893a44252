package io.gpurental.agent.facts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This machine's telemetry: nvidia-smi, the BMC's power reading, SMART, disk and load. */
public final class HostTelemetry implements TelemetrySource {
  private final Path stateDir;
  private final NvidiaSmi nvidiaSmi;
  private final BmcPower bmc;
  private final DiskHealth disks;
  private final double baseLoadW;

  public HostTelemetry(Path stateDir, NvidiaSmi nvidiaSmi, BmcPower bmc, DiskHealth disks, double baseLoadW) {
    this.stateDir = stateDir;
    this.nvidiaSmi = nvidiaSmi;
    this.bmc = bmc;
    this.disks = disks;
    this.baseLoadW = baseLoadW;
  }

  @Override
  public Telemetry collect() throws IOException {
    double free = Files.getFileStore(stateDir).getUsableSpace() / (1024.0 * 1024 * 1024);
    var gpus = nvidiaSmi.gpus();
    Telemetry.Power power = Telemetry.power(bmc.watts(), gpus, baseLoadW);
    return new Telemetry(Math.round(free * 10) / 10.0, Telemetry.load1m(HostFacts.readOrEmpty(Path.of("/proc/loadavg"))),
        gpus, power.watts(), power.source(), disks.current(), null);
  }

  @Override
  public void refreshRarely() {
    disks.refresh();
  }
}
