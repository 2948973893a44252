package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonObject;

/** 404 Not found. */
public final class NotFound extends ApiException {
  public NotFound(String detail) {
    this(detail, null);
  }

  public NotFound(String detail, JsonObject extensions) {
    super(404, "not-found", "Not found", detail, extensions);
  }
}
