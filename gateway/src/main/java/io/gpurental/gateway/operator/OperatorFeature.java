package io.gpurental.gateway.operator;

import io.gpurental.gateway.catalog.GpuModels;
import io.gpurental.gateway.catalog.Offers;
import io.gpurental.gateway.fleet.Hosts;
import io.gpurental.gateway.fleet.Maintenance;
import io.gpurental.gateway.fleet.Uptimes;
import io.gpurental.gateway.platform.Feature;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/** Administration on top of the other features' ports: for now, the fleet's hosts and their offers. */
public final class OperatorFeature implements Feature {
  private final HostsApi hosts;
  private final MaintenanceApi maintenance;

  public OperatorFeature(Hosts hosts, Offers offers, GpuModels gpuModels, String publicBase, Maintenance maintenance,
      Uptimes uptimes) {
    this.hosts = new HostsApi(hosts, offers, gpuModels, publicBase, uptimes);
    this.maintenance = new MaintenanceApi(maintenance);
  }

  @Override
  public void bind(RouterBuilder api) {
    hosts.bind(api);
    maintenance.bind(api);
  }
}
