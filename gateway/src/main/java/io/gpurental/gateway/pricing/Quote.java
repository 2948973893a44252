package io.gpurental.gateway.pricing;

import io.gpurental.gateway.platform.Money;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;

/**
 * A guaranteed price for one window on one offer, valid until {@code expiresAt}, with the terms it
 * was priced with (its items, and the cancellation fee a reservation made from it keeps), the
 * cancellation policy and the ready guarantee that come with it.
 */
public record Quote(String id, String offerId, int gpuCount, Instant start, int hours, Money pricePerGpuHour,
    List<PriceItem> items, Money total, Instant expiresAt, String cancellationPolicy, Integer cancellationFeeBps,
    String readyGuarantee, Image image) {

  /**
   * The image the instance will run (a template's id and pinned reference, or a custom reference
   * with a null template id) and the container ports it publishes besides SSH; null on a quote:
   * none (no template exists), or an extension's quote.
   */
  public record Image(String templateId, String ref, List<Integer> ports) {
    public JsonObject toJson() {
      return new JsonObject().put("template_id", templateId).put("ref", ref).put("ports", new JsonArray(ports));
    }

    static Image fromJson(JsonObject json) {
      return json == null ? null : new Image(json.getString("template_id"), json.getString("ref"),
          json.getJsonArray("ports").stream().map(p -> ((Number) p).intValue()).toList());
    }
  }

  /** The same quote with another image (a reservation that picks its image beside a quote id). */
  public Quote withImage(Image other) {
    return new Quote(id, offerId, gpuCount, start, hours, pricePerGpuHour, items, total, expiresAt, cancellationPolicy,
        cancellationFeeBps, readyGuarantee, other);
  }

  public Instant end() {
    return start.plusSeconds(hours * 3600L);
  }

  public JsonObject toJson() {
    JsonArray itemsJson = new JsonArray();
    items.forEach(item -> itemsJson.add(item.toJson()));
    return new JsonObject()
        .put("id", id)
        .put("offer_id", offerId)
        .put("gpu_count", gpuCount)
        .put("start", start.toString())
        .put("end", end().toString())
        .put("hours", hours)
        .put("price_per_gpu_hour", pricePerGpuHour.toJson())
        .put("items", itemsJson)
        .put("total", total.toJson())
        .put("expires_at", expiresAt.toString())
        .put("cancellation_policy", cancellationPolicy)
        .put("cancellation_fee_bps", cancellationFeeBps)
        .put("ready_guarantee", readyGuarantee)
        .put("image", image == null ? null : image.toJson());
  }

  public static Quote fromJson(JsonObject json) {
    return new Quote(json.getString("id"), json.getString("offer_id"), json.getInteger("gpu_count"),
        Instant.parse(json.getString("start")), json.getInteger("hours"),
        Money.fromJson(json.getJsonObject("price_per_gpu_hour")),
        json.getJsonArray("items").stream().map(item -> PriceItem.fromJson((JsonObject) item)).toList(),
        Money.fromJson(json.getJsonObject("total")), Instant.parse(json.getString("expires_at")),
        json.getString("cancellation_policy"), json.getInteger("cancellation_fee_bps"), json.getString("ready_guarantee"),
        Image.fromJson(json.getJsonObject("image")));
  }
}
