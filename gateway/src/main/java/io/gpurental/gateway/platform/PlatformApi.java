package io.gpurental.gateway.platform;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/** The platform's own API operations: the version and the contract itself. */
public final class PlatformApi implements Feature {
  private final BuildInfo buildInfo;
  private final ApiContract contract;

  public PlatformApi(BuildInfo buildInfo, ApiContract contract) {
    this.buildInfo = buildInfo;
    this.contract = contract;
  }

  @Override
  public void bind(RouterBuilder builder) {
    builder.getRoute("getVersion").addHandler(ctx -> ctx.json(new JsonObject()
        .put("version", buildInfo.version())
        .put("schema_version", buildInfo.schemaVersion())
        .put("mode", buildInfo.mode().id())));
    builder.getRoute("getOpenApiDocument").addHandler(ctx -> ctx.response()
        .putHeader("Content-Type", "application/yaml; charset=utf-8")
        .end(contract.yaml()));
  }
}
