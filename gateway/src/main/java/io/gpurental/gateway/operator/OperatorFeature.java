package io.gpurental.gateway.operator;

import io.gpurental.gateway.catalog.GpuModels;
import io.gpurental.gateway.catalog.Offers;
import io.gpurental.gateway.catalog.Prices;
import io.gpurental.gateway.fleet.Hosts;
import io.gpurental.gateway.fleet.Images;
import io.gpurental.gateway.fleet.Maintenance;
import io.gpurental.gateway.fleet.Uptimes;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.pricing.CurrentTerms;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;

/** Administration on top of the other features' ports: the fleet's hosts and their offers, prices, settings, audit. */
public final class OperatorFeature implements Feature {
  private final HostsApi hosts;
  private final MaintenanceApi maintenance;
  private PricesApi prices;
  private SettingsApi settings;
  private AuditApi audit;
  private ImagesApi images;

  public OperatorFeature(Hosts hosts, Offers offers, GpuModels gpuModels, String publicBase, Maintenance maintenance,
      Uptimes uptimes, Pool pool) {
    this.hosts = new HostsApi(hosts, offers, gpuModels, publicBase, uptimes, new HostFiguresRepository(pool));
    this.maintenance = new MaintenanceApi(maintenance);
  }

  /**
   * Prices (the catalog's port), the terms of sale (pricing's) and the audit log (platform's): a
   * step of its own so the constructor the other console items extend stays as it was.
   */
  public OperatorFeature withPricing(Prices prices, CurrentTerms terms, String currency, Pool pool) {
    this.prices = new PricesApi(prices);
    this.settings = new SettingsApi(terms, currency);
    this.audit = new AuditApi(pool);
    return this;
  }

  @Override
  public void bind(RouterBuilder api) {
    hosts.bind(api);
    if (prices != null) {
      prices.bind(api);
      settings.bind(api);
      audit.bind(api);
    }
    maintenance.bind(api);
    if (images != null) {
      images.bind(api);
    }
  }

  /** Image templates and the allowed registries (the fleet's port). */
  public OperatorFeature withImages(Images images) {
    this.images = new ImagesApi(images);
    return this;
  }
}
