package io.gpurental.gateway.auth.signin;

import io.gpurental.gateway.config.AuthConfig;
import io.gpurental.gateway.platform.Futures;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.User;
import io.vertx.ext.auth.oauth2.OAuth2Auth;
import io.vertx.ext.auth.oauth2.OAuth2AuthorizationURL;
import io.vertx.ext.auth.oauth2.OAuth2FlowType;
import io.vertx.ext.auth.oauth2.OAuth2Options;
import io.vertx.ext.auth.oauth2.Oauth2Credentials;
import io.vertx.ext.auth.oauth2.providers.OpenIDConnectAuth;
import java.time.Instant;
import java.util.List;

/**
 * Google sign-in (OpenID Connect): endpoints and keys by discovery from the configured issuer;
 * the id_token's signature is verified against the JWKS by vertx-auth-oauth2, and its issuer,
 * audience, expiry and nonce are checked here as well.
 */
public final class GoogleProvider implements IdentityProvider {
  private static final List<String> SCOPES = List.of("openid", "email", "profile");
  private final Vertx vertx;
  private final AuthConfig.Provider config;
  private Future<OAuth2Auth> discovered;

  public GoogleProvider(Vertx vertx, AuthConfig.Provider config) {
    this.vertx = vertx;
    this.config = config;
  }

  @Override
  public String name() {
    return "google";
  }

  /**
   * Discovery happens on first use, not at boot: the provider may be briefly unreachable (or, in
   * sandbox mode, be this very server, which is not listening yet at boot). A failed discovery
   * is retried by the next sign-in.
   */
  private Future<OAuth2Auth> oauth() {
    return Futures.onCallerContext(vertx, discovery());
  }

  private synchronized Future<OAuth2Auth> discovery() {
    if (discovered == null || discovered.failed()) {
      discovered = OpenIDConnectAuth.discover(vertx, new OAuth2Options()
          .setClientId(config.clientId())
          .setClientSecret(config.clientSecret())
          .setSite(config.site().toString()));
    }
    return discovered;
  }

  @Override
  public Future<String> authorizeUrl(AuthorizationRequest request) {
    return oauth().map(oauth -> oauth.authorizeURL(new OAuth2AuthorizationURL()
        .setRedirectUri(request.redirectUri())
        .setState(request.state())
        .setScopes(SCOPES)
        .setCodeChallenge(Pkce.challenge(request.codeVerifier()))
        .setCodeChallengeMethod("S256")
        .putAdditionalParameter("nonce", request.nonce())));
  }

  @Override
  public Future<ExternalIdentity> identify(String code, AuthorizationRequest request) {
    return oauth().compose(oauth -> oauth.authenticate(new Oauth2Credentials()
            .setFlow(OAuth2FlowType.AUTH_CODE)
            .setCode(code)
            .setRedirectUri(request.redirectUri())
            .setCodeVerifier(request.codeVerifier())))
        .map(user -> identity(checkedClaims(user, request.nonce())));
  }

  private JsonObject checkedClaims(User user, String nonce) {
    JsonObject claims = user.attributes().getJsonObject("idToken");
    if (claims == null) {
      // vertx-auth-oauth2 drops an id_token whose signature, issuer or audience fails its checks
      // (rather than failing the exchange), so a missing one means a missing or invalid token
      throw new IllegalStateException("no valid id_token (absent, or its signature, issuer or audience is wrong)");
    }
    if (!config.site().toString().equals(claims.getString("iss"))) {
      throw new IllegalStateException("id_token issuer " + claims.getString("iss") + " is not " + config.site());
    }
    if (!audiences(claims).contains(config.clientId())) {
      throw new IllegalStateException("id_token audience does not include this client");
    }
    Long expires = claims.getLong("exp");
    if (expires == null || Instant.ofEpochSecond(expires).isBefore(Instant.now())) {
      throw new IllegalStateException("id_token has expired");
    }
    if (!nonce.equals(claims.getString("nonce"))) {
      throw new IllegalStateException("id_token nonce does not match this sign-in");
    }
    return claims;
  }

  private static List<Object> audiences(JsonObject claims) {
    Object audience = claims.getValue("aud");
    return audience instanceof JsonArray array ? array.getList() : List.of(String.valueOf(audience));
  }

  private static ExternalIdentity identity(JsonObject claims) {
    String email = claims.getString("email");
    String name = claims.getString("name");
    return new ExternalIdentity("google", claims.getString("sub"), null, email,
        claims.getBoolean("email_verified", false),
        name == null || name.isBlank() ? (email == null ? "Google user" : email) : name);
  }
}
