package io.gpurental.gateway.catalog;

import io.gpurental.gateway.fleet.Uptimes;
import io.vertx.sqlclient.Row;
import java.time.OffsetDateTime;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** An offer with its host, site, GPU model, current price and GPUs free for one window. */
public record OfferRow(
    String id, String hostId, String hostName, String hostStatus, String site, String region, String country,
    String gpuModel, String architecture, int vramGb, int gpusTotal, int gpusFree, List<Integer> gpuCounts,
    String cpuModel, int cpuCores, int ramGb, int nvmeGb, Integer netGbps, String interconnect,
    int cpuCoresPerGpu, int ramGbPerGpu, int nvmeGbPerGpu,
    long pricePerGpuHour, String currency,
    Long hyperscalerPrice, Long specializedPrice, PlannedMaintenance maintenance, Uptimes.Uptime uptime,
    String isolation, List<CachedTemplate> images) {

  /**
   * An image template on the offer's host: whether the host has it in its image cache (a start in
   * seconds), and the template's minimum driver and CUDA versions against the host's.
   */
  public record CachedTemplate(String id, String name, boolean cached, Versions driver, Versions cuda) {
    /** Whether the host meets the template's minimums (a version not known on either side refuses nothing). */
    public boolean available() {
      return driver.ok() && cuda.ok();
    }

    /** Why the template cannot run on this host, or null when it can. */
    public String unavailableReason() {
      if (available()) {
        return null;
      }
      StringBuilder why = new StringBuilder(name).append(" needs");
      if (!driver.ok()) {
        why.append(" NVIDIA driver ").append(driver.minimum()).append(" or newer (this host has ")
            .append(driver.host()).append(")");
      }
      if (!cuda.ok()) {
        why.append(driver.ok() ? "" : " and").append(" CUDA ").append(cuda.minimum())
            .append(" or newer (this host has ").append(cuda.host()).append(")");
      }
      return why.append('.').toString();
    }
  }

  /** A template's minimum version (null: none), the host's (null: not reported), and whether the host meets it. */
  public record Versions(String minimum, String host, boolean ok) {}

  /** The maintenance window that keeps the searched window free of new reservations. */
  public record PlannedMaintenance(String id, OffsetDateTime startsAt, OffsetDateTime endsAt, boolean drain) {}

  static OfferRow from(Row row) {
    return new OfferRow(row.getString("id"), row.getString("host_id"), row.getString("host_name"),
        row.getString("host_status"), row.getString("site"), row.getString("region"), row.getString("country"),
        row.getString("gpu_model"), row.getString("architecture"), row.getInteger("vram_gb"),
        row.getInteger("gpus_total"), row.getInteger("gpus_free"), Arrays.asList(row.getArrayOfIntegers("gpu_counts")),
        row.getString("cpu_model"), row.getInteger("cpu_cores"), row.getInteger("ram_gb"), row.getInteger("nvme_gb"),
        row.getInteger("net_gbps"), row.getString("interconnect"), row.getInteger("cpu_cores_per_gpu"),
        row.getInteger("ram_gb_per_gpu"), row.getInteger("nvme_gb_per_gpu"),
        row.getLong("price_per_gpu_hour"), row.getString("currency"),
        row.getLong("hyperscaler_price_minor"), row.getLong("specialized_price_minor"),
        row.getString("maintenance_id") == null ? null : new PlannedMaintenance(row.getString("maintenance_id"),
            row.getOffsetDateTime("maintenance_starts_at"), row.getOffsetDateTime("maintenance_ends_at"),
            row.getBoolean("maintenance_drain")),
        new Uptimes.Uptime(row.getDouble("uptime_24h"), row.getDouble("uptime_7d"), row.getDouble("uptime_30d"),
            orZero(row.getDouble("counted_seconds_30d")), orZero(row.getDouble("down_seconds_30d")),
            orZero(row.getDouble("maintenance_seconds_30d"))),
        row.getString("isolation"), templates(row.getValue("images")));
  }

  private static List<CachedTemplate> templates(Object json) {
    List<CachedTemplate> templates = new ArrayList<>();
    if (json instanceof JsonArray array) {
      for (int i = 0; i < array.size(); i++) {
        JsonObject t = array.getJsonObject(i);
        templates.add(new CachedTemplate(t.getString("id"), t.getString("name"), t.getBoolean("cached", false),
            new Versions(t.getString("min_driver_version"), t.getString("driver_version"), t.getBoolean("driver_ok", true)),
            new Versions(t.getString("min_cuda_version"), t.getString("cuda_version"), t.getBoolean("cuda_ok", true))));
      }
    }
    return templates;
  }

  private static double orZero(Double value) {
    return value == null ? 0 : value;
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
