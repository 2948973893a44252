package io.gpurental.gateway.platform;

import io.vertx.ext.web.openapi.router.RouterBuilder;

/** A feature's share of the {@code /api/v1} contract: it binds handlers to its operation ids. */
public interface ApiFeature {
  void bind(RouterBuilder builder);
}
