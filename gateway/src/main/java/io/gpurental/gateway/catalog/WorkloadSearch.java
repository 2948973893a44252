package io.gpurental.gateway.catalog;

import io.gpurental.gateway.catalog.workloads.Fit;
import io.gpurental.gateway.catalog.workloads.Workloads;
import io.gpurental.gateway.platform.errors.Invalid;
import java.util.function.Function;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A catalog search that starts from a workload ({@code ?workload=<preset>&<its parameters>}):
 * reads and validates it, and fits it to the offers the search found, in Java, on the rows the
 * search (and its cache) already holds.
 */
final class WorkloadSearch {
  private WorkloadSearch() {}

  /** The request's workload, if it names one; 400 for parameters without a workload or unknown to it. */
  static Optional<Workloads.Workload> from(Function<String, String> query) {
    Map<String, String> given = new LinkedHashMap<>();
    for (String name : Workloads.PARAMETER_NAMES) {
      String value = query.apply(name);
      if (value != null && !value.isBlank()) {
        given.put(name, value);
      }
    }
    String preset = query.apply("workload");
    if (preset == null || preset.isBlank()) {
      if (!given.isEmpty()) {
        throw new Invalid("Workload parameters need a workload: " + String.join(", ", given.keySet()) + ".",
            given.keySet().stream().map(name -> new Invalid.FieldError("#/" + name, "only with workload")).toList());
      }
      return Optional.empty();
    }
    return Optional.of(Workloads.resolve(preset.trim(), given));
  }

  static Fit.Hardware hardware(OfferRow row) {
    return new Fit.Hardware(row.gpuModel(), row.vramGb(), row.gpuCounts(), row.interconnect(), row.ramGbPerGpu(),
        row.nvmeGbPerGpu());
  }

  /**
   * What SQL may narrow a workload search to: hosts whose GPUs hold the need's VRAM per GPU and in
   * all at their largest count (the figures of {@link Fit}'s own rule; the fit still decides).
   */
  static CatalogRepository.VramNeed vramNeed(Workloads.Workload workload) {
    int perGpu = Fit.leastVramPerGpuGb(workload.need());
    return new CatalogRepository.VramNeed(perGpu > 0 ? perGpu : null, Fit.leastVramInAllGb(workload.need()));
  }

  /** The offer's smallest fitting count within the search's GPU limits, or null. */
  static Fit fit(Workloads.Workload workload, OfferRow row, int minGpus, int maxGpus) {
    return Fit.smallest(workload.need(), hardware(row), minGpus, maxGpus).orElse(null);
  }

  /** Null when some offer of the search could hold the workload (booked or not), else what it would need. */
  static String unmet(Workloads.Workload workload, List<OfferRow> rows) {
    return unmetBy(workload, rows.stream().map(WorkloadSearch::hardware).toList());
  }

  /** {@link #unmet} on the offers' hardware alone. */
  static String unmetBy(Workloads.Workload workload, List<Fit.Hardware> offers) {
    boolean fitsSomewhere = offers.stream()
        .anyMatch(hardware -> Fit.smallest(workload.need(), hardware, 1, Integer.MAX_VALUE).isPresent());
    return fitsSomewhere ? null : Fit.unmet(workload.need(), offers);
  }
}
