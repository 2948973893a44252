package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonObject;

/** 402 Payment required. */
public final class PaymentRequired extends ApiException {
  public PaymentRequired(String detail) {
    this(detail, null);
  }

  public PaymentRequired(String detail, JsonObject extensions) {
    super(402, "payment-required", "Payment required", detail, extensions);
  }
}
