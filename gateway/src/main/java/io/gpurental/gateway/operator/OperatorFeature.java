package io.gpurental.gateway.operator;

import io.gpurental.gateway.catalog.GpuModels;
import io.gpurental.gateway.catalog.Offers;
import io.gpurental.gateway.fleet.Hosts;
import io.gpurental.gateway.platform.Feature;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/** Administration on top of the other features' ports: for now, the fleet's hosts and their offers. */
public final class OperatorFeature implements Feature {
  private final HostsApi hosts;

  public OperatorFeature(Hosts hosts, Offers offers, GpuModels gpuModels, String publicBase) {
    this.hosts = new HostsApi(hosts, offers, gpuModels, publicBase);
  }

  @Override
  public void bind(RouterBuilder api) {
    hosts.bind(api);
  }
}
