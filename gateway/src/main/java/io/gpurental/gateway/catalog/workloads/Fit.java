package io.gpurental.gateway.catalog.workloads;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a {@link Need} fits an offer's hardware: the smallest GPU count of the offer that holds it,
 * and one sentence that shows the arithmetic.
 *
 * @param gpuCount the smallest count of the offer that fits
 * @param vramGb the VRAM of those GPUs together
 */
public record Fit(int gpuCount, int vramGb, String sentence) {

  /** What the fit is decided on: one offer's GPUs and its per-GPU share of the host. */
  public record Hardware(String gpuModel, int vramGbPerGpu, List<Integer> gpuCounts, String interconnect,
      int ramGbPerGpu, int diskGbPerGpu) {}

  /** NVLink (and NVSwitch) count as fast; PCIe does not. */
  public static boolean fast(String interconnect) {
    String name = interconnect == null ? "" : interconnect.toLowerCase(Locale.ROOT);
    return name.contains("nvlink") || name.contains("nvswitch");
  }

  /** The smallest allowed count in [{@code minGpus}, {@code maxGpus}] that holds the need, if any. */
  public static Optional<Fit> smallest(Need need, Hardware hardware, int minGpus, int maxGpus) {
    return hardware.gpuCounts().stream().sorted()
        .filter(count -> count >= minGpus && count <= maxGpus && holds(need, hardware, count))
        .findFirst()
        .map(count -> new Fit(count, count * hardware.vramGbPerGpu(), sentence(need, hardware, count)));
  }

  static boolean holds(Need need, Hardware hardware, int count) {
    boolean memory = need.splittable()
        ? (double) count * hardware.vramGbPerGpu() >= need.totalGb()
        : hardware.vramGbPerGpu() >= need.totalGb();
    boolean link = count == 1 || !need.fastInterconnectForMultiGpu() || fast(hardware.interconnect());
    return memory && link && hardware.vramGbPerGpu() >= need.minPerGpuGb()
        && (double) count * hardware.ramGbPerGpu() >= need.ramGb()
        && (double) count * hardware.diskGbPerGpu() >= need.diskGb();
  }

  /**
   * The least VRAM per GPU, in whole GB, of any hardware that {@link #holds} the need (GPUs have
   * whole GB: rounding up keeps the comparison exact); 0 when any will do.
   */
  public static int leastVramPerGpuGb(Need need) {
    return (int) Math.ceil(need.splittable() ? need.minPerGpuGb() : Math.max(need.minPerGpuGb(), need.totalGb()));
  }

  /** The least VRAM in all, in whole GB, of the GPUs of any count that {@link #holds} the need. */
  public static int leastVramInAllGb(Need need) {
    return (int) Math.ceil(need.totalGb());
  }

  static String sentence(Need need, Hardware hardware, int count) {
    String gpus = count + " × " + hardware.gpuModel()
        + (count > 1 && need.fastInterconnectForMultiGpu() ? " over " + hardware.interconnect() : "");
    String memory = need.splittable() || count == 1
        ? Need.gb(count * hardware.vramGbPerGpu()) : Need.gb(hardware.vramGbPerGpu()) + " each";
    return gpus + ": " + memory + " for " + need.forWhat() + ", " + Need.gb(need.totalGb())
        + " in all with runtime overhead";
  }

  /**
   * What a workload that fits none of {@code fleet} would need, and the most the fleet offers,
   * e.g. "Needs 1,476 GB of VRAM in all …; the most here is 8 × H200 with 1,128 GB."
   */
  public static String unmet(Need need, List<Hardware> fleet) {
    String what = "Needs " + Need.gb(need.totalGb()) + " of VRAM in all (" + need.forWhat() + ", with runtime overhead)"
        + (need.splittable()
            ? need.fastInterconnectForMultiGpu() ? ", split over GPUs joined by NVLink" : ", split over one or more GPUs"
            : " on a single GPU")
        + ", " + Need.gb(need.ramGb()) + " of RAM and " + Need.gb(need.diskGb()) + " of disk";
    Optional<String> most = fleet.stream()
        .max(Comparator.comparingLong(hardware -> need.splittable() ? largest(hardware) * hardware.vramGbPerGpu()
            : hardware.vramGbPerGpu()))
        .map(hardware -> need.splittable()
            ? largest(hardware) + " × " + hardware.gpuModel() + " with " + Need.gb(largest(hardware) * hardware.vramGbPerGpu())
            : hardware.gpuModel() + " with " + Need.gb(hardware.vramGbPerGpu()));
    return what + (most.isPresent() ? "; the most an offer here has is " + most.get() + "." : "; no offer matches.");
  }

  private static long largest(Hardware hardware) {
    return hardware.gpuCounts().stream().mapToInt(Integer::intValue).max().orElse(0);
  }
}
