package io.gpurental.gateway.auth.oauth;

import io.vertx.core.json.JsonObject;

/**
 * An error of the token, registration or revocation endpoint, answered as OAuth says (RFC 6749
 * §5.2, RFC 7591 §3.2.2): JSON {@code error} and {@code error_description}, not problem+json.
 */
final class OAuthError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String code;

  OAuthError(int status, String code, String description) {
    super(description, null, false, false);
    this.status = status;
    this.code = code;
  }

  static OAuthError invalidRequest(String description) {
    return new OAuthError(400, "invalid_request", description);
  }

  static OAuthError invalidGrant(String description) {
    return new OAuthError(400, "invalid_grant", description);
  }

  static OAuthError invalidClient(String description) {
    return new OAuthError(401, "invalid_client", description);
  }

  static OAuthError invalidClientMetadata(String description) {
    return new OAuthError(400, "invalid_client_metadata", description);
  }

  int status() {
    return status;
  }

  String code() {
    return code;
  }

  JsonObject toJson() {
    return new JsonObject().put("error", code).put("error_description", getMessage());
  }
}
