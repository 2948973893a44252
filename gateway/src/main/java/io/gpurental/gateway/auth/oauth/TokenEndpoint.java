package io.gpurental.gateway.auth.oauth;

import io.gpurental.gateway.auth.signin.Pkce;
import io.gpurental.gateway.auth.tokens.TokenSecrets;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * {@code POST /oauth/token}: the authorization code (with its PKCE verifier) or a refresh token
 * for a short-lived access token bound to the grant's resource and a new refresh token. A code or
 * refresh token presented a second time revokes its grant (OAuth 2.1 §4.1.2, §4.3.1).
 */
final class TokenEndpoint {
  private final OAuthRepository repository;
  private final Duration accessLifetime;
  /** Told the account whose grant was revoked here (reuse), so its open streams end. */
  private final Consumer<String> revoked;

  TokenEndpoint(OAuthRepository repository, Duration accessLifetime, Consumer<String> revoked) {
    this.repository = repository;
    this.accessLifetime = accessLifetime;
    this.revoked = revoked;
  }

  Future<JsonObject> exchange(MultiMap form) {
    String grantType = form.get("grant_type");
    if ("authorization_code".equals(grantType)) {
      return authorizationCode(form);
    }
    if ("refresh_token".equals(grantType)) {
      return refresh(form);
    }
    return Future.failedFuture(new OAuthError(400, grantType == null ? "invalid_request" : "unsupported_grant_type",
        "grant_type must be authorization_code or refresh_token"));
  }

  private Future<JsonObject> authorizationCode(MultiMap form) {
    String code = required(form, "code");
    String clientId = required(form, "client_id");
    String redirectUri = required(form, "redirect_uri");
    String verifier = required(form, "code_verifier");
    if (!verifier.matches("[A-Za-z0-9._~-]{43,128}")) {
      throw OAuthError.invalidRequest("code_verifier must be 43 to 128 unreserved characters (RFC 7636)");
    }
    return repository.redeem(code).compose(found -> {
      OAuthRepository.Code redeemed = found.orElseThrow(() -> OAuthError.invalidGrant("unknown authorization code"));
      if (redeemed.reused()) {
        return revoke(redeemed.grantId()).compose(v -> Future.failedFuture(OAuthError.invalidGrant(
            "the authorization code was already used; the grant made with it is revoked")));
      }
      if (!redeemed.live()) {
        throw OAuthError.invalidGrant("the authorization code expired: authorize again");
      }
      if (!redeemed.clientId().equals(clientId) || !redeemed.redirectUri().equals(redirectUri)) {
        throw OAuthError.invalidGrant("the code was issued to another client or redirect_uri");
      }
      if (!MessageDigest.isEqual(Pkce.challenge(verifier).getBytes(StandardCharsets.US_ASCII),
          redeemed.codeChallenge().getBytes(StandardCharsets.US_ASCII))) {
        throw OAuthError.invalidGrant("code_verifier does not match the code_challenge (S256)");
      }
      checkResource(form, redeemed.resource());
      return issue(redeemed.grantId(), redeemed.resource());
    });
  }

  private Future<JsonObject> refresh(MultiMap form) {
    String token = required(form, "refresh_token");
    String clientId = required(form, "client_id");
    return repository.rotate(token).compose(found -> {
      OAuthRepository.Refresh refresh = found.orElseThrow(() -> OAuthError.invalidGrant("unknown refresh token"));
      if (refresh.reused()) {
        return revoke(refresh.grantId()).compose(v -> Future.failedFuture(OAuthError.invalidGrant(
            "the refresh token was already used; its grant is revoked (authorize again)")));
      }
      if (!refresh.grantLive() || !refresh.live()) {
        throw OAuthError.invalidGrant("the grant was revoked or the refresh token expired: authorize again");
      }
      if (!refresh.clientId().equals(clientId)) {
        throw OAuthError.invalidGrant("the refresh token was issued to another client");
      }
      checkResource(form, refresh.resource());
      return issue(refresh.grantId(), refresh.resource());
    });
  }

  private static void checkResource(MultiMap form, String bound) {
    String resource = form.get("resource");
    if (resource != null && !resource.replaceAll("/+$", "").equals(bound)) {
      throw new OAuthError(400, "invalid_target", "this grant is for the resource " + bound);
    }
  }

  private Future<Void> revoke(String grantId) {
    return repository.revokeGrant(grantId, null).map(owner -> {
      owner.ifPresent(revoked);
      return null;
    });
  }

  private Future<JsonObject> issue(String grantId, String resource) {
    String access = TokenSecrets.generate(TokenSecrets.OAUTH_ACCESS_PREFIX);
    String refresh = TokenSecrets.generate(TokenSecrets.OAUTH_REFRESH_PREFIX);
    return repository.issue(grantId, resource, access, accessLifetime, refresh)
        .compose(v -> repository.scopesOf(grantId))
        .map(scopes -> new JsonObject().put("access_token", access).put("token_type", "Bearer")
            .put("expires_in", accessLifetime.toSeconds()).put("refresh_token", refresh)
            .put("scope", String.join(" ", scopes)));
  }

  static String required(MultiMap form, String name) {
    String value = form.get(name);
    if (value == null || value.isBlank()) {
      throw OAuthError.invalidRequest(name + " is required");
    }
    return value;
  }

  /** Answers an OAuth error as JSON; anything else goes to the usual failure handler. */
  static void fail(RoutingContext ctx, Throwable failure) {
    if (failure instanceof OAuthError error) {
      ctx.response().setStatusCode(error.status()).putHeader("Content-Type", "application/json")
          .putHeader("Cache-Control", "no-store").end(error.toJson().encode());
    } else {
      ctx.fail(failure);
    }
  }
}
