package io.gpurental.gateway.platform.errors;

/** 422: the request is well-formed but cannot be processed as sent (e.g. an idempotency key reused). */
public final class Unprocessable extends ApiException {
  public Unprocessable(String type, String title, String detail) {
    super(422, type, title, detail, null);
  }
}
