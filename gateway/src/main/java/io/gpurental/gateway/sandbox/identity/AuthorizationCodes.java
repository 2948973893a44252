package io.gpurental.gateway.sandbox.identity;

import io.gpurental.gateway.platform.Hashes;
import io.gpurental.gateway.platform.Ids;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.Base64;

/**
 * Authorization codes and access tokens the sandbox providers issue, in cluster-wide maps so
 * any node can redeem them. A code is removed when redeemed: a replayed code is refused.
 */
final class AuthorizationCodes {
  private static final long CODE_TTL_MS = 10 * 60 * 1000L;
  private static final long TOKEN_TTL_MS = 60 * 60 * 1000L;
  private final Vertx vertx;

  AuthorizationCodes(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Looked up per call (cheap), so callbacks stay on the calling request's event loop. */
  private Future<AsyncMap<String, JsonObject>> codes() {
    return vertx.sharedData().getAsyncMap("sandbox.identity.codes");
  }

  private Future<AsyncMap<String, JsonObject>> tokens() {
    return vertx.sharedData().getAsyncMap("sandbox.identity.tokens");
  }

  /** Issues a code for an approved authorization request. */
  Future<String> issue(JsonObject grant) {
    String code = Ids.randomBase62(24);
    return codes().compose(map -> map.put(code, grant, CODE_TTL_MS)).map(code);
  }

  /**
   * Redeems a code once. Fails with an OAuth error code when the code is unknown, used, for
   * another client or redirect URI, or the PKCE verifier does not match its challenge.
   */
  Future<JsonObject> redeem(String code, String clientId, String redirectUri, String verifier) {
    if (code == null) {
      return Future.failedFuture(new OAuthError("invalid_request", "code is required"));
    }
    return codes().compose(map -> map.remove(code)).compose(grant -> {
      if (grant == null) {
        return Future.failedFuture(new OAuthError("invalid_grant", "The code is incorrect, expired or already used."));
      }
      if (!grant.getString("client_id").equals(clientId)) {
        return Future.failedFuture(new OAuthError("invalid_grant", "The code was issued to another client."));
      }
      if (!grant.getString("redirect_uri").equals(redirectUri)) {
        return Future.failedFuture(new OAuthError("invalid_grant", "redirect_uri does not match the authorization request."));
      }
      String challenge = grant.getString("code_challenge");
      if (verifier == null || !challenge.equals(s256(verifier))) {
        return Future.failedFuture(new OAuthError("invalid_grant", "PKCE verification failed: code_verifier does not match."));
      }
      return Future.succeededFuture(grant);
    });
  }

  Future<String> issueAccessToken(String prefix, JsonObject person) {
    String token = prefix + Ids.randomBase62(36);
    return tokens().compose(map -> map.put(token, person, TOKEN_TTL_MS)).map(token);
  }

  Future<JsonObject> person(String bearerHeader) {
    if (bearerHeader == null || !bearerHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Future.succeededFuture(null);
    }
    String token = bearerHeader.substring(7).trim();
    return tokens().compose(map -> map.get(token));
  }

  /** PKCE S256, computed here independently of the gateway's client side. */
  static String s256(String verifier) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Hashes.sha256(verifier));
  }

  /** An OAuth 2.0 error response ({@code error}, {@code error_description}). */
  static final class OAuthError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String error;

    OAuthError(String error, String description) {
      super(description, null, false, false);
      this.error = error;
    }

    JsonObject toJson() {
      return new JsonObject().put("error", error).put("error_description", getMessage());
    }
  }
}
