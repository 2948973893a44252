package io.gpurental.gateway.operator;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.fleet.ImageJson;
import io.gpurental.gateway.fleet.Images;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * {@code /operator/images}: the image templates renters pick from (each change audited), and
 * {@code /operator/image-settings}: the registries custom images may come from and each host's
 * image cache limit.
 */
final class ImagesApi {
  private final Images images;

  ImagesApi(Images images) {
    this.images = images;
  }

  void bind(RouterBuilder api) {
    api.getRoute("listImageTemplates").addHandler(this::list);
    api.getRoute("createImageTemplate").addHandler(ctx -> images.create(spec(ctx.body().asJsonObject()), actor(ctx))
        .onSuccess(t -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
            .end(ImageJson.of(t, true).encode()))
        .onFailure(ctx::fail));
    api.getRoute("updateImageTemplate").addHandler(ctx -> images.update(ctx.pathParam("image_id"),
            spec(ctx.body().asJsonObject()), actor(ctx))
        .onSuccess(t -> ctx.json(ImageJson.of(t, true))).onFailure(ctx::fail));
    api.getRoute("retireImageTemplate").addHandler(ctx -> images.retire(ctx.pathParam("image_id"), actor(ctx))
        .onSuccess(t -> ctx.json(ImageJson.of(t, true))).onFailure(ctx::fail));
    api.getRoute("getImageSettings").addHandler(ctx -> images.settings()
        .onSuccess(s -> ctx.json(ImageJson.of(s))).onFailure(ctx::fail));
    api.getRoute("putImageSettings").addHandler(ctx -> {
      JsonObject body = ctx.body().asJsonObject();
      JsonArray registries = body.getJsonArray("allowed_registries");
      images.updateSettings(registries == null ? null : registries.stream().map(String::valueOf).toList(),
              body.getInteger("image_cache_limit_gb"), actor(ctx))
          .onSuccess(s -> ctx.json(ImageJson.of(s))).onFailure(ctx::fail);
    });
  }

  private void list(RoutingContext ctx) {
    boolean retired = "true".equals(ctx.request().getParam("include_retired"));
    images.templates(retired).onSuccess(templates -> {
      JsonArray data = new JsonArray();
      templates.forEach(t -> data.add(ImageJson.of(t, true)));
      ctx.json(new JsonObject().put("data", data).put("next_cursor", null));
    }).onFailure(ctx::fail);
  }

  private static Images.TemplateSpec spec(JsonObject body) {
    JsonArray ports = body.getJsonArray("default_ports", new JsonArray());
    return new Images.TemplateSpec(body.getString("name"), body.getString("ref"), body.getString("description"),
        ports.stream().map(p -> ((Number) p).intValue()).toList(), body.getString("min_driver_version"),
        body.getString("min_cuda_version"), body.getBoolean("is_default", false));
  }

  private static String actor(RoutingContext ctx) {
    return "account:" + Principal.required(ctx).accountId();
  }
}
