package io.gpurental.gateway.sandbox.identity;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** The claims of a sandbox id_token, and the defects a test can ask for. */
final class IdTokens {
  private static final long LIFETIME_SECONDS = 3600;

  private IdTokens() {}

  static Future<JsonObject> claims(JsonObject person, JsonObject grant, String clientId, String issuer) {
    long now = System.currentTimeMillis() / 1000;
    String fault = grant.getString("fault");
    JsonObject claims = person.copy()
        .put("iss", "wrong_issuer".equals(fault) ? "https://issuer.invalid" : issuer)
        .put("aud", "wrong_audience".equals(fault) ? "someone-else.apps.sandbox" : clientId)
        .put("azp", clientId)
        .put("iat", "expired".equals(fault) ? now - 2 * LIFETIME_SECONDS : now)
        .put("exp", "expired".equals(fault) ? now - LIFETIME_SECONDS : now + LIFETIME_SECONDS);
    if (grant.getString("nonce") != null) {
      claims.put("nonce", grant.getString("nonce"));
    }
    return Future.succeededFuture(claims);
  }

  /** With {@code bad_signature}, the token's payload is swapped after signing, breaking the signature. */
  static String applySignatureFault(String token, String fault) {
    if (!"bad_signature".equals(fault)) {
      return token;
    }
    String[] parts = token.split("\\.");
    JsonObject payload = new JsonObject(new String(java.util.Base64.getUrlDecoder().decode(parts[1]),
        java.nio.charset.StandardCharsets.UTF_8)).put("email", "mallory@example.com");
    String forged = java.util.Base64.getUrlEncoder().withoutPadding()
        .encodeToString(payload.encode().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return parts[0] + "." + forged + "." + parts[2];
  }
}
