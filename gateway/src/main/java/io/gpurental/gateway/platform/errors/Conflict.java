package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonObject;

/** 409 Conflict. */
public final class Conflict extends ApiException {
  public Conflict(String detail) {
    this(detail, null);
  }

  public Conflict(String detail, JsonObject extensions) {
    super(409, "conflict", "Conflict", detail, extensions);
  }
}
