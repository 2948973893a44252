package io.gpurental.gateway.operator;

import io.gpurental.gateway.operator.economics.EconomicsRoutes;
import io.gpurental.gateway.platform.Feature;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;

/**
 * The operator's costs and economics: costs per host, revenue, fees, energy and margin per
 * fleet, site, host or GPU model, and price suggestions (package {@code operator.economics}).
 */
public final class EconomicsFeature implements Feature {
  private final EconomicsRoutes routes;

  /** {@code currency}: the gateway's pricing currency, which costs are kept in. */
  public EconomicsFeature(Pool pool, String currency) {
    this.routes = new EconomicsRoutes(pool, currency);
  }

  @Override
  public void bind(RouterBuilder api) {
    routes.bind(api);
  }
}
