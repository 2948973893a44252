package io.gpurental.gateway.operator.economics;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.operator.economics.EconomicsCalculator.Costs;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;

/** {@code GET/PUT /operator/hosts/{host_id}/costs}: what a host costs the operator, audited on every change. */
final class HostCostsApi {
  private final Pool pool;
  private final String currency;

  HostCostsApi(Pool pool, String currency) {
    this.pool = pool;
    this.currency = currency;
  }

  void bind(RouterBuilder api) {
    api.getRoute("getHostCosts").addHandler(this::get);
    api.getRoute("putHostCosts").addHandler(this::put);
  }

  private void get(RoutingContext ctx) {
    String hostId = ctx.pathParam("host_id");
    HostCostsRepository.history(pool, hostId)
        .compose(history -> !history.isEmpty() ? Future.succeededFuture(json(history))
            : HostCostsRepository.hostExists(pool, hostId).map(exists -> {
              throw new NotFound(exists ? "No costs are entered for host " + hostId + " yet; PUT them."
                  : "There is no host " + hostId + ".");
            }))
        .onSuccess(ctx::json).onFailure(ctx::fail);
  }

  /**
   * Enters the costs from {@code effective_from}: by default since the host joined for its first
   * costs, and from the current hour for a change, so a change never re-prices the past; an
   * explicit null corrects the period since the host joined. The audit's "before" is the period
   * that was in effect from that hour.
   */
  private void put(RoutingContext ctx) {
    String hostId = ctx.pathParam("host_id");
    JsonObject body = ctx.body().asJsonObject();
    Costs costs = costs(body);
    boolean sinceJoined = body.containsKey("effective_from") && body.getValue("effective_from") == null;
    OffsetDateTime asked = effectiveFrom(body.getString("effective_from"));
    String actor = "account:" + Principal.required(ctx).accountId();
    pool.withTransaction(tx -> HostCostsRepository.hostExists(tx, hostId).compose(exists -> {
          if (!exists) {
            throw new NotFound("There is no host " + hostId + ".");
          }
          return HostCostsRepository.lock(tx, hostId).compose(v -> HostCostsRepository.history(tx, hostId));
        }).compose(history -> {
          OffsetDateTime from = sinceJoined || asked != null || history.isEmpty() ? asked : currentHour();
          return HostCostsRepository.inEffect(tx, hostId, from).compose(before -> HostCostsRepository
              .put(tx, hostId, currency, costs, from, actor)
              .compose(v -> HostCostsRepository.inEffect(tx, hostId, from))
              .compose(after -> AuditLog.append(tx, actor, "host.costs_set", hostId,
                  before.map(HostCostsApi::period).orElse(null), period(after.orElseThrow())))
              .compose(v -> HostCostsRepository.history(tx, hostId)));
        }))
        .onSuccess(history -> ctx.json(json(history))).onFailure(ctx::fail);
  }

  private static OffsetDateTime currentHour() {
    return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.HOURS);
  }

  /** A whole UTC hour no later than the current one; null when not given. */
  private static OffsetDateTime effectiveFrom(String value) {
    if (value == null) {
      return null;
    }
    OffsetDateTime at = Economics.wholeHour("effective_from", value);
    if (at.isAfter(currentHour())) {
      throw new Invalid("Costs take effect from the current hour or a past one, not from " + at + ".",
          List.of(new Invalid.FieldError("#/effective_from", "in the future")));
    }
    return at;
  }


  /** The body as costs; 400 for what the contract cannot say (currency, residual above price, PUE precision). */
  private Costs costs(JsonObject body) {
    if (!currency.equals(body.getString("currency").toLowerCase(Locale.ROOT))) {
      throw new Invalid("Costs are kept in the gateway's currency, " + currency + ".",
          List.of(new Invalid.FieldError("#/currency", "not " + currency)));
    }
    long purchase = body.getLong("purchase_price");
    long residual = body.getLong("residual_value", 0L);
    if (residual > purchase) {
      throw new Invalid("The residual value cannot exceed the purchase price.",
          List.of(new Invalid.FieldError("#/residual_value", "above purchase_price")));
    }
    BigDecimal pue = new BigDecimal(body.getValue("pue").toString());
    if (pue.stripTrailingZeros().scale() > 3) {
      throw new Invalid("PUE has at most 3 decimals, e.g. 1.35.", List.of(new Invalid.FieldError("#/pue",
          "more than 3 decimals")));
    }
    return new Costs(purchase, body.getInteger("depreciation_months"), residual,
        body.getLong("electricity_price_per_kwh"), pue, body.getLong("colocation_per_month", 0L),
        body.getLong("bandwidth_per_month", 0L), body.getLong("maintenance_per_month", 0L),
        body.getLong("financing_per_month"));
  }

  /** The costs in effect now (the newest period) and every period, newest first. */
  static JsonObject json(List<HostCostsRepository.Stored> history) {
    JsonArray periods = new JsonArray();
    history.forEach(p -> periods.add(period(p)));
    return period(history.get(0)).put("history", periods);
  }

  static JsonObject period(HostCostsRepository.Stored stored) {
    Costs c = stored.costs();
    return new JsonObject().put("currency", stored.currency()).put("purchase_price", c.purchasePrice())
        .put("depreciation_months", c.depreciationMonths()).put("residual_value", c.residualValue())
        .put("electricity_price_per_kwh", c.electricityPerKwh()).put("pue", c.pue().stripTrailingZeros().doubleValue())
        .put("colocation_per_month", c.colocationPerMonth()).put("bandwidth_per_month", c.bandwidthPerMonth())
        .put("maintenance_per_month", c.maintenancePerMonth()).put("financing_per_month", c.financingPerMonth())
        .put("effective_from", stored.effectiveFrom() == null ? null : stored.effectiveFrom().toInstant().toString())
        .put("updated_at", stored.updatedAt().toInstant().toString()).put("updated_by", stored.updatedBy());
  }
}
