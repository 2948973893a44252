package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonObject;

/**
 * An RFC 9457 problem detail. {@code type} is a URN naming the problem kind
 * ({@code urn:problem-type:gpu-rental:<slug>}); every kind is listed in the OpenAPI document.
 */
public record Problem(String slug, String title, int status, String detail, JsonObject extensions) {
  public static final String MEDIA_TYPE = "application/problem+json";
  private static final String TYPE_PREFIX = "urn:problem-type:gpu-rental:";

  public JsonObject toJson(String instance, String requestId) {
    JsonObject json = new JsonObject()
        .put("type", TYPE_PREFIX + slug)
        .put("title", title)
        .put("status", status)
        .put("detail", detail)
        .put("instance", instance)
        .put("request_id", requestId);
    if (extensions != null) {
      // an extension never replaces a standard member (a reservation's "status" once replaced the
      // HTTP status, and a replayed problem could not be read back)
      extensions.forEach(e -> json.getMap().putIfAbsent(e.getKey(), e.getValue()));
    }
    return json;
  }
}
