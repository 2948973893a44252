package io.gpurental.gateway.catalog.workloads;

import java.util.List;

/**
 * What a workload needs of the hardware (GB are 10⁹ bytes).
 *
 * @param totalGb VRAM in total, runtime overhead included
 * @param minPerGpuGb the least VRAM each GPU must have: all of it when the work cannot be split
 * @param splittable whether the total may be spread over several GPUs
 * @param fastInterconnectForMultiGpu whether more than one GPU needs a fast interconnect (NVLink)
 * @param parts what the total is made of, in order, overhead last
 * @param forWhat the words after "for" in the fit sentence, e.g. "141 GB of weights and 2.7 GB of KV cache at 8k context (bf16)"
 */
public record Need(double totalGb, double minPerGpuGb, boolean splittable, boolean fastInterconnectForMultiGpu,
    double ramGb, double diskGb, List<Part> parts, String forWhat) {

  /** One named share of the total. */
  public record Part(String name, double gb) {}

  /** The share named {@code name}, 0 when there is none. */
  public double part(String name) {
    return parts.stream().filter(part -> part.name().equals(name)).mapToDouble(Part::gb).sum();
  }

  /** The parts plus the stated runtime overhead ({@link #OVERHEAD_SHARE} of them, at least {@link #MIN_OVERHEAD_GB}). */
  static Need of(List<Part> parts, boolean splittable, boolean fastInterconnect, double ramGb, double diskGb,
      String forWhat) {
    double sum = parts.stream().mapToDouble(Part::gb).sum();
    double overhead = Math.max(MIN_OVERHEAD_GB, sum * OVERHEAD_SHARE);
    List<Part> all = new java.util.ArrayList<>(parts);
    all.add(new Part("overhead", overhead));
    double total = sum + overhead;
    return new Need(total, splittable ? 0 : total, splittable, fastInterconnect, ramGb, diskGb, List.copyOf(all),
        forWhat);
  }

  /** Runtime overhead: CUDA context, framework workspace, allocator fragmentation. */
  public static final double OVERHEAD_SHARE = 0.10;
  public static final double MIN_OVERHEAD_GB = 1.0;

  /** "141 GB", "2.7 GB": one decimal under 10 GB, whole GB above. */
  public static String gb(double gb) {
    if (gb < 10) {
      return String.format(java.util.Locale.ROOT, "%.1f GB", gb);
    }
    return String.format(java.util.Locale.ROOT, "%,d GB", Math.round(gb));
  }
}
