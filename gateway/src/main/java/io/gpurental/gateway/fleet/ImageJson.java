package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.OffsetDateTime;

/** The API shape of image templates and settings, and {@code GET /images} (renters: the live templates). */
public final class ImageJson {
  private ImageJson() {}

  /** A template as renters see it; the operator's view adds when it was made, changed and retired. */
  public static JsonObject of(Images.Template t, boolean forOperator) {
    JsonObject json = new JsonObject().put("id", t.id()).put("name", t.name()).put("ref", t.ref())
        .put("description", t.description()).put("default_ports", new JsonArray(t.defaultPorts()))
        .put("min_driver_version", t.minDriverVersion()).put("min_cuda_version", t.minCudaVersion())
        .put("is_default", t.isDefault());
    if (forOperator) {
      json.put("created_at", text(t.createdAt())).put("updated_at", text(t.updatedAt()))
          .put("retired_at", text(t.retiredAt()));
    }
    return json;
  }

  public static JsonObject of(Images.Settings s) {
    return new JsonObject().put("allowed_registries", new JsonArray(s.allowedRegistries()))
        .put("image_cache_limit_gb", s.imageCacheLimitGb());
  }

  static void bind(RouterBuilder api, Images images) {
    api.getRoute("listImages").addHandler(ctx -> list(ctx, images));
  }

  private static void list(RoutingContext ctx, Images images) {
    renterList(images).onSuccess(ctx::json).onFailure(ctx::fail);
  }

  /** What {@code GET /images} answers: the live templates and the registries custom images may come from. */
  public static Future<JsonObject> renterList(Images images) {
    return images.templates(false).compose(templates -> images.settings().map(settings -> {
      JsonArray data = new JsonArray();
      templates.forEach(t -> data.add(of(t, false)));
      return new JsonObject().put("data", data).put("next_cursor", null)
          .put("allowed_registries", new JsonArray(settings.allowedRegistries()));
    }));
  }

  private static String text(OffsetDateTime time) {
    return time == null ? null : time.toInstant().toString();
  }
}
