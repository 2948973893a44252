package io.gpurental.gateway.operator.economics;

import io.gpurental.gateway.platform.QueryNumbers;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code GET /operator/economics} (JSON, or CSV for {@code Accept: text/csv}) and
 * {@code GET /operator/price-suggestions}.
 */
final class EconomicsApi {
  private static final Duration DEFAULT_RANGE = Duration.ofDays(30);
  private static final int DEFAULT_TARGET_MARGIN_BPS = 3000;
  private final Economics economics;

  EconomicsApi(Economics economics) {
    this.economics = economics;
  }

  void bind(RouterBuilder api) {
    api.getRoute("getEconomics").addHandler(this::report);
    api.getRoute("listPriceSuggestions").addHandler(this::suggestions);
  }

  private void report(RoutingContext ctx) {
    Economics.Range range = Economics.range(ctx.request().getParam("from"), ctx.request().getParam("to"),
        DEFAULT_RANGE);
    Economics.GroupBy groupBy = Economics.groupBy(ctx.request().getParam("group_by"));
    boolean csv = "csv".equals(ctx.request().getParam("format")) || wantsCsv(ctx.request().getHeader("Accept"));
    economics.report(range, groupBy).onSuccess(report -> {
      if (csv) {
        ctx.response().putHeader("Content-Type", "text/csv; charset=utf-8")
            .putHeader("Content-Disposition", "attachment; filename=\"economics-" + report.groupBy() + ".csv\"")
            .end(EconomicsJson.csv(report));
      } else {
        ctx.json(EconomicsJson.report(report));
      }
    }).onFailure(ctx::fail);
  }

  /** CSV when {@code Accept} names it before JSON (a download link uses {@code ?format=csv} instead). */
  private static boolean wantsCsv(String accept) {
    if (accept == null) {
      return false;
    }
    int csv = accept.indexOf("text/csv");
    int json = accept.indexOf("application/json");
    return csv >= 0 && (json < 0 || csv < json);
  }

  private void suggestions(RoutingContext ctx) {
    Economics.Range range = Economics.range(ctx.request().getParam("from"), ctx.request().getParam("to"),
        DEFAULT_RANGE);
    Long target = QueryNumbers.wholeNumber(ctx, "target_margin_bps");
    int margin = target == null ? DEFAULT_TARGET_MARGIN_BPS : Math.toIntExact(target);
    economics.references().compose(references -> economics.perHost(range).map(hosts -> {
      Map<String, EconomicsRepository.Reference> byModel = references.stream()
          .collect(Collectors.toMap(EconomicsRepository.Reference::gpuModel, r -> r));
      JsonArray data = new JsonArray();
      hosts.stream().filter(g -> g.hosts().get(0).offerId() != null).forEach(g -> data.add(PriceSuggestions.of(g,
          margin, byModel.get(g.hosts().get(0).gpuModel()), economics.currency())));
      return new JsonObject().put("from", range.from().toInstant().toString())
          .put("to", range.to().toInstant().toString()).put("target_margin_bps", margin).put("data", data)
          .putNull("next_cursor");
    })).onSuccess(ctx::json).onFailure(ctx::fail);
  }
}
