package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonObject;

/** 503: a dependency (PostgreSQL) is unavailable for now; {@code retry_after_seconds} (also Retry-After) says when to retry. */
public final class ServiceUnavailable extends ApiException {
  public ServiceUnavailable(String detail, long retryAfterSeconds) {
    super(503, "unavailable", "Service unavailable", detail,
        new JsonObject().put(TooManyRequests.RETRY_AFTER, retryAfterSeconds));
  }
}
