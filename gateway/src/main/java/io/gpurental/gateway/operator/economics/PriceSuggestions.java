package io.gpurental.gateway.operator.economics;

import io.gpurental.gateway.operator.economics.EconomicsCalculator.Totals;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What to charge for an offer: the break-even price per GPU-hour at its utilization and costs
 * over the range, the price for a target margin, and the GPU model's reference market prices.
 */
final class PriceSuggestions {
  private PriceSuggestions() {}

  static JsonObject of(Economics.Group host, int targetMarginBps, EconomicsRepository.Reference reference,
      String currency) {
    EconomicsRepository.HostRow row = host.hosts().get(0);
    Totals t = host.figures().totals();
    JsonArray notes = new JsonArray();
    if (t.hostsWithoutCosts() > 0) {
      notes.add("No costs are entered for this host: the prices below cover only refunds, credits and card fees.");
    }
    if (t.bookedGpuHours().signum() == 0) {
      notes.add("No GPU-hours were booked in the range: at zero utilization no price covers the costs.");
    }
    if (t.missingHours().signum() > 0) {
      notes.add("Measured power covers " + EconomicsJson.hours(t.coveredHours()) + " of "
          + EconomicsJson.hours(t.rangeHours()) + " hours; energy for the rest is not included.");
    }
    return new JsonObject().put("offer_id", row.offerId()).put("host_id", row.hostId())
        .put("host_name", row.hostName()).put("gpu_model", row.gpuModel())
        .put("list_price", money(host.figures().listPrice(), currency))
        .put("utilization_bps", host.figures().utilizationBps())
        .put("booked_gpu_hours", EconomicsJson.hours(t.bookedGpuHours()))
        .put("costs", money(EconomicsCalculator.costs(t), currency))
        .put("break_even_price", money(EconomicsCalculator.breakEvenPrice(t), currency))
        .put("target_margin_bps", targetMarginBps)
        .put("target_price", money(EconomicsCalculator.priceFor(t, targetMarginBps), currency))
        .put("reference_prices", references(reference))
        .put("notes", notes);
  }

  private static JsonObject references(EconomicsRepository.Reference r) {
    if (r == null) {
      return new JsonObject().putNull("hyperscaler").putNull("specialized").putNull("as_of");
    }
    return new JsonObject()
        .put("hyperscaler", r.hyperscaler() == null ? null : money(r.hyperscaler(), r.currency())
            .put("source", r.hyperscalerSource()))
        .put("specialized", r.specialized() == null ? null : money(r.specialized(), r.currency())
            .put("source", r.specializedSource()))
        .put("as_of", r.asOf() == null ? null : r.asOf().toString());
  }

  private static JsonObject money(Long amount, String currency) {
    return amount == null ? null : new JsonObject().put("amount", amount).put("currency", currency);
  }
}
