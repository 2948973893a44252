package io.gpurental.gateway.sandbox.hosts;

import io.gpurental.agent.simulated.SimulatedHost;
import io.gpurental.gateway.fleet.DemoHosts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The simulated GPUs of a demo host: the UUIDs the fleet seeded for it, nvidia-smi's name, and
 * plausible memory and power per model (idle and board power), so its heartbeats read like a real
 * server's and its estimated power follows its instances.
 */
final class DemoGpus {
  /** Base load of a demo server (CPUs, fans, disks): the agent's default. */
  static final double BASE_LOAD_W = 150;

  private record Spec(long memoryMib, double idleW, double busyW) {
  }

  private static final Map<String, Spec> SPECS = Map.of(
      "H200", new Spec(143771, 75, 700),
      "H100 SXM", new Spec(81559, 70, 700),
      "A100 80GB", new Spec(81920, 60, 400),
      "L40S", new Spec(46068, 35, 350),
      "RTX 4090", new Spec(24564, 20, 450),
      "RTX 5090", new Spec(32607, 25, 575));
  private static final Spec UNKNOWN = new Spec(24576, 30, 300);

  private DemoGpus() {
  }

  static SimulatedHost simulated(DemoHosts.Host host) {
    Spec spec = SPECS.getOrDefault(host.gpuModel(), UNKNOWN);
    List<SimulatedHost.Gpu> gpus = new ArrayList<>();
    for (int i = 0; i < host.gpuCount(); i++) {
      gpus.add(new SimulatedHost.Gpu(i, uuid(host.id(), i), host.nvidiaSmiName(), spec.memoryMib(), spec.idleW(),
          spec.busyW()));
    }
    return new SimulatedHost(gpus, host.nvmeGb(), BASE_LOAD_W);
  }

  /** As the fleet seeds it: {@code 'GPU-' || md5(host_id || '_gpu' || idx)::uuid}. */
  static String uuid(String hostId, int index) {
    try {
      String hex = HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
          .digest((hostId + "_gpu" + index).getBytes(StandardCharsets.UTF_8)));
      return "GPU-" + hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
          + hex.substring(16, 20) + "-" + hex.substring(20);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is part of every JDK", e);
    }
  }
}
