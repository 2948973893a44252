package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.json.JsonObject;

/** An error answered the way Stripe does: an HTTP status and {@code {"error": {...}}}. */
final class StripeError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  final int status;
  final transient JsonObject error;

  private StripeError(int status, JsonObject error) {
    super(error.getString("message"), null, false, false);
    this.status = status;
    this.error = error;
  }

  static StripeError invalidRequest(String message, String param) {
    JsonObject error = new JsonObject().put("type", "invalid_request_error").put("message", message);
    if (param != null) {
      error.put("param", param);
    }
    return new StripeError(400, error);
  }

  static StripeError missingParam(String param) {
    return new StripeError(400, new JsonObject().put("type", "invalid_request_error").put("code", "parameter_missing")
        .put("param", param).put("message", "Missing required param: " + param + "."));
  }

  static StripeError notFound(String id, String param) {
    return new StripeError(404, new JsonObject().put("type", "invalid_request_error").put("code", "resource_missing")
        .put("param", param).put("message", "No such " + param.replace('_', ' ') + ": '" + id + "'"));
  }

  static StripeError unexpectedState(String message) {
    return new StripeError(400, new JsonObject().put("type", "invalid_request_error")
        .put("code", "payment_intent_unexpected_state").put("message", message));
  }

  static StripeError card(String code, String declineCode, String message, JsonObject paymentIntent) {
    JsonObject error = new JsonObject().put("type", "card_error").put("code", code).put("message", message);
    if (declineCode != null) {
      error.put("decline_code", declineCode);
    }
    if (paymentIntent != null) {
      error.put("payment_intent", paymentIntent);
    }
    return new StripeError(402, error);
  }

  static StripeError authentication(String message) {
    return new StripeError(401, new JsonObject().put("type", "invalid_request_error").put("message", message));
  }

  static StripeError idempotency(int status, String message) {
    return new StripeError(status, new JsonObject().put("type", "idempotency_error").put("message", message));
  }

  JsonObject body() {
    return new JsonObject().put("error", error);
  }
}
