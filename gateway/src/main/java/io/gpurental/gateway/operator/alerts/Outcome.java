package io.gpurental.gateway.operator.alerts;

/**
 * What one attempt of a delivery came to.
 *
 * @param statusCode the webhook's HTTP status (null for e-mail, or when no answer came)
 * @param error why it failed (null when delivered)
 */
record Outcome(boolean delivered, Integer statusCode, String error) {
  static Outcome delivered(Integer statusCode) {
    return new Outcome(true, statusCode, null);
  }

  static Outcome failed(Integer statusCode, String error) {
    return new Outcome(false, statusCode, error == null ? "failed" : error);
  }
}
