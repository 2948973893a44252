package io.gpurental.gateway.operator.economics;

import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;

/** Binds the economics operations (costs, report, suggestions) on the API router. */
public final class EconomicsRoutes {
  private final HostCostsApi costs;
  private final EconomicsApi economics;

  public EconomicsRoutes(Pool pool, String currency) {
    this.costs = new HostCostsApi(pool, currency);
    this.economics = new EconomicsApi(new Economics(pool, currency));
  }

  public void bind(RouterBuilder api) {
    costs.bind(api);
    economics.bind(api);
  }
}
