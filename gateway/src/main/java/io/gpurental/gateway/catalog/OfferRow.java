package io.gpurental.gateway.catalog;

import io.vertx.sqlclient.Row;
import java.util.Arrays;
import java.util.List;

/** An offer with its host, site, GPU model, current price and GPUs free for one window. */
public record OfferRow(
    String id, String hostId, String hostName, String hostStatus, String site, String region, String country,
    String gpuModel, String architecture, int vramGb, int gpusTotal, int gpusFree, List<Integer> gpuCounts,
    String cpuModel, int cpuCores, int ramGb, int nvmeGb, Integer netGbps, String interconnect,
    int cpuCoresPerGpu, int ramGbPerGpu, int nvmeGbPerGpu,
    long pricePerGpuHour, String currency,
    Long hyperscalerPrice, Long specializedPrice) {

  static OfferRow from(Row row) {
    return new OfferRow(row.getString("id"), row.getString("host_id"), row.getString("host_name"),
        row.getString("host_status"), row.getString("site"), row.getString("region"), row.getString("country"),
        row.getString("gpu_model"), row.getString("architecture"), row.getInteger("vram_gb"),
        row.getInteger("gpus_total"), row.getInteger("gpus_free"), Arrays.asList(row.getArrayOfIntegers("gpu_counts")),
        row.getString("cpu_model"), row.getInteger("cpu_cores"), row.getInteger("ram_gb"), row.getInteger("nvme_gb"),
        row.getInteger("net_gbps"), row.getString("interconnect"), row.getInteger("cpu_cores_per_gpu"),
        row.getInteger("ram_gb_per_gpu"), row.getInteger("nvme_gb_per_gpu"),
        row.getLong("price_per_gpu_hour"), row.getString("currency"),
        row.getLong("hyperscaler_price_minor"), row.getLong("specialized_price_minor"));
  }

  /** GPUs a reservation could take now: none unless the host is active. */
  public int gpusAvailable() {
    return "active".equals(hostStatus) ? gpusFree : 0;
  }

  /** The smallest allowed GPU count of at least {@code atLeast}, or -1 when there is none. */
  public int smallestCount(int atLeast) {
    return gpuCounts.stream().filter(count -> count >= atLeast).mapToInt(Integer::intValue).min().orElse(-1);
  }

  /** Whether some allowed count between {@code min} and {@code max} fits the free GPUs. */
  public boolean bookable(int min, int max) {
    return gpuCounts.stream().anyMatch(count -> count >= min && count <= max && count <= gpusAvailable());
  }
}
