package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonObject;

/** 410 Gone. */
public final class Gone extends ApiException {
  public Gone(String detail) {
    this(detail, null);
  }

  public Gone(String detail, JsonObject extensions) {
    super(410, "gone", "Gone", detail, extensions);
  }
}
