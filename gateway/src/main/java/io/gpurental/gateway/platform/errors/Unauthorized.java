package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonObject;

/** 401 Authentication required. */
public final class Unauthorized extends ApiException {
  public Unauthorized(String detail) {
    this(detail, null);
  }

  public Unauthorized(String detail, JsonObject extensions) {
    super(401, "unauthorized", "Authentication required", detail, extensions);
  }
}
