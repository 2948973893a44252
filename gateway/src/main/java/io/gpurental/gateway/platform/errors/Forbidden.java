package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonObject;

/** 403 Forbidden. */
public final class Forbidden extends ApiException {
  public Forbidden(String detail) {
    this(detail, null);
  }

  public Forbidden(String detail, JsonObject extensions) {
    super(403, "forbidden", "Forbidden", detail, extensions);
  }
}
