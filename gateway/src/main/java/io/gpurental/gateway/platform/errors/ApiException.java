package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonObject;

/**
 * A failure a client can act on. Handlers fail with one of the subclasses; the failure handler
 * renders it as RFC 9457 problem+json with this status, type, title and detail.
 */
public abstract class ApiException extends RuntimeException {
  private final int status;
  private final String type;
  private final String title;
  private final JsonObject extensions;

  protected ApiException(int status, String type, String title, String detail, JsonObject extensions) {
    super(detail, null, false, false);
    this.status = status;
    this.type = type;
    this.title = title;
    this.extensions = extensions == null ? new JsonObject() : extensions;
  }

  public int status() {
    return status;
  }

  /** A short slug naming the problem type, e.g. {@code not-found}. */
  public String type() {
    return type;
  }

  public String title() {
    return title;
  }

  public String detail() {
    return getMessage();
  }

  /** Extra members of the problem object (e.g. {@code errors}, {@code next_free_window}). */
  public JsonObject extensions() {
    return extensions;
  }
}
