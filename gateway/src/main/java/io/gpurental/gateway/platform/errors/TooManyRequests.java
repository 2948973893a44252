package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonObject;

/** 429: a rate limit was hit; {@code retry_after_seconds} (also sent as Retry-After) says when to retry. */
public final class TooManyRequests extends ApiException {
  public static final String RETRY_AFTER = "retry_after_seconds";

  public TooManyRequests(String detail, long retryAfterSeconds) {
    super(429, "too-many-requests", "Too many requests", detail,
        new JsonObject().put(RETRY_AFTER, retryAfterSeconds));
  }
}
