package io.gpurental.gateway.catalog;

import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.pricing.PriceBreakdown;
import io.gpurental.gateway.pricing.Window;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** The API shape of an offer priced for one window. */
final class OfferJson {
  private OfferJson() {}

  static JsonObject of(OfferRow offer, Window window, int gpuCount, PriceBreakdown price, int minGpus, int maxGpus) {
    String currency = offer.currency();
    return new JsonObject()
        .put("id", offer.id())
        .put("host_id", offer.hostId())
        .put("host_name", offer.hostName())
        .put("site", offer.site())
        .put("region", offer.region())
        .put("country", offer.country())
        .put("gpu_model", offer.gpuModel())
        .put("architecture", offer.architecture())
        .put("vram_gb", offer.vramGb())
        .put("gpus_total", offer.gpusTotal())
        .put("gpus_available", offer.gpusAvailable())
        .put("gpu_counts", new JsonArray(offer.gpuCounts()))
        .put("bookable", offer.bookable(minGpus, maxGpus))
        .put("isolation", offer.isolation())
        .put("images", images(offer))
        .put("hardware", new JsonObject()
            .put("cpu_model", offer.cpuModel())
            .put("cpu_cores", offer.cpuCores())
            .put("ram_gb", offer.ramGb())
            .put("nvme_gb", offer.nvmeGb())
            .put("net_gbps", offer.netGbps())
            .put("interconnect", offer.interconnect())
            .put("per_gpu", new JsonObject()
                .put("cpu_cores", offer.cpuCoresPerGpu())
                .put("ram_gb", offer.ramGbPerGpu())
                .put("nvme_gb", offer.nvmeGbPerGpu())))
        .put("price_per_gpu_hour", new Money(offer.pricePerGpuHour(), currency).toJson())
        .put("all_in_per_gpu_hour", price.allInPerGpuHour().toJson())
        .put("window", new JsonObject()
            .put("start", window.start().toString())
            .put("end", window.end().toString())
            .put("hours", window.hours())
            .put("gpu_count", gpuCount))
        .put("window_total", price.total().toJson())
        .put("price_items", price.itemsJson())
        .put("savings", savings(offer, price.allInPerGpuHour().amount(), currency))
        .put("uptime_30d", offer.uptime().last30d())
        .put("uptime", offer.uptime().toJson())
        .put("maintenance", maintenance(offer.maintenance()));
  }

  /**
   * Per image template: whether the host has it cached, whether the host's driver and CUDA meet
   * its minimums (and why not); the catalog adds its measured time-to-ready.
   */
  private static JsonArray images(OfferRow offer) {
    JsonArray images = new JsonArray();
    offer.images().forEach(t -> images.add(new JsonObject().put("id", t.id()).put("name", t.name())
        .put("cached", t.cached()).put("available", t.available()).put("unavailable_reason", t.unavailableReason())
        .put("min_driver_version", t.driver().minimum()).put("min_cuda_version", t.cuda().minimum())));
    return images;
  }

  /** The planned maintenance that makes the window unbookable, or null. */
  private static JsonObject maintenance(OfferRow.PlannedMaintenance window) {
    return window == null ? null : new JsonObject().put("id", window.id())
        .put("starts_at", window.startsAt().toInstant().toString()).put("ends_at", window.endsAt().toInstant().toString())
        .put("drain", window.drain());
  }

  private static JsonObject savings(OfferRow offer, long allInPerGpuHour, String currency) {
    return new JsonObject()
        .put("vs_hyperscaler_percent", percentBelow(allInPerGpuHour, offer.hyperscalerPrice()))
        .put("vs_specialized_percent", percentBelow(allInPerGpuHour, offer.specializedPrice()))
        .put("hyperscaler_per_gpu_hour", reference(offer.hyperscalerPrice(), currency))
        .put("specialized_per_gpu_hour", reference(offer.specializedPrice(), currency));
  }

  /** Whole percent below the reference (negative when dearer), or null without a reference. */
  static Integer percentBelow(long price, Long reference) {
    if (reference == null || reference <= 0) {
      return null;
    }
    return BigDecimal.valueOf(reference - price).multiply(BigDecimal.valueOf(100))
        .divide(BigDecimal.valueOf(reference), 0, RoundingMode.HALF_UP).intValueExact();
  }

  private static JsonObject reference(Long amount, String currency) {
    return amount == null ? null : new Money(amount, currency).toJson();
  }
}
