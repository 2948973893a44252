package io.gpurental.agent.facts;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the gateway is told about the machine at enrolment (blocking reads of /proc and /sys). */
public record HostFacts(String hostname, String cpuModel, int cpuCores, long ramGb, long diskGb,
    Integer netGbps, String driverVersion, String cudaVersion, List<GpuReading> gpus) {
  private static final double GIB = 1024.0 * 1024 * 1024;

  public static HostFacts collect(Path stateDir, NvidiaSmi nvidiaSmi) throws IOException {
    String cpuinfo = readOrEmpty(Path.of("/proc/cpuinfo"));
    NvidiaSmi.Versions versions = nvidiaSmi.versions();
    return new HostFacts(readHostname(), cpuModel(cpuinfo), cpuCores(cpuinfo),
        ramGb(readOrEmpty(Path.of("/proc/meminfo"))),
        Math.round(Files.getFileStore(stateDir).getTotalSpace() / GIB), readNetGbps(),
        versions.driver(), versions.cuda(), nvidiaSmi.gpus());
  }

  static String cpuModel(String cpuinfo) {
    return cpuinfo.lines().filter(l -> l.startsWith("model name")).findFirst()
        .map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown");
  }

  /** Logical CPUs the kernel lists (not the JVM's container-limited view). */
  static int cpuCores(String cpuinfo) {
    int cores = (int) cpuinfo.lines().filter(l -> l.startsWith("processor")).count();
    return cores > 0 ? cores : Runtime.getRuntime().availableProcessors();
  }

  static long ramGb(String meminfo) {
    return meminfo.lines().filter(l -> l.startsWith("MemTotal:")).findFirst()
        .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
        .map(kib -> Math.round(kib * 1024 / GIB)).orElse(0L);
  }

  /** The fastest physical link's speed; null when the kernel does not say (VMs, containers). */
  static Integer readNetGbps() {
    int bestMbps = -1;
    try (DirectoryStream<Path> links = Files.newDirectoryStream(Path.of("/sys/class/net"))) {
      for (Path link : links) {
        String speed = readOrEmpty(link.resolve("speed")).strip();
        if (!speed.isEmpty() && Files.exists(link.resolve("device"))) {
          try {
            bestMbps = Math.max(bestMbps, Integer.parseInt(speed));
          } catch (NumberFormatException ignored) {
            // a link that is down prints nothing usable
          }
        }
      }
    } catch (IOException e) {
      return null;
    }
    return bestMbps > 0 ? bestMbps / 1000 : null;
  }

  static String readHostname() {
    String name = readOrEmpty(Path.of("/proc/sys/kernel/hostname")).strip();
    return name.isEmpty() ? "unknown" : name;
  }

  static String readOrEmpty(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException | SecurityException e) {
      return "";
    }
  }
}
