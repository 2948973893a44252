package io.gpurental.gateway.auth.signin;

import io.gpurental.gateway.config.AuthConfig;
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
import io.vertx.ext.web.client.WebClient;
import java.util.List;

/**
 * GitHub sign-in (plain OAuth2): the profile from {@code /user}, the verified primary email
 * from {@code /user/emails}. Endpoints come from config, so the same code serves the sandbox.
 */
public final class GithubProvider implements IdentityProvider {
  private static final List<String> SCOPES = List.of("read:user", "user:email");
  private final OAuth2Auth oauth;
  private final WebClient web;
  private final String apiUrl;

  public GithubProvider(Vertx vertx, AuthConfig.Provider config, WebClient web) {
    this.apiUrl = config.apiUrl().toString();
    this.web = web;
    this.oauth = OAuth2Auth.create(vertx, new OAuth2Options()
        .setClientId(config.clientId())
        .setClientSecret(config.clientSecret())
        .setSite(config.site().toString())
        .setAuthorizationPath("/login/oauth/authorize")
        .setTokenPath("/login/oauth/access_token")
        .setUserInfoPath(apiUrl + "/user")
        .setHeaders(new JsonObject().put("User-Agent", "gpu-rental-gateway")));
  }

  @Override
  public String name() {
    return "github";
  }

  @Override
  public Future<String> authorizeUrl(AuthorizationRequest request) {
    return Future.succeededFuture(oauth.authorizeURL(new OAuth2AuthorizationURL()
        .setRedirectUri(request.redirectUri())
        .setState(request.state())
        .setScopes(SCOPES)
        .setCodeChallenge(Pkce.challenge(request.codeVerifier()))
        .setCodeChallengeMethod("S256")));
  }

  @Override
  public Future<ExternalIdentity> identify(String code, AuthorizationRequest request) {
    return oauth.authenticate(new Oauth2Credentials()
            .setFlow(OAuth2FlowType.AUTH_CODE)
            .setCode(code)
            .setRedirectUri(request.redirectUri())
            .setCodeVerifier(request.codeVerifier()))
        .compose(user -> oauth.userInfo(user).compose(profile -> primaryEmail(user)
            .map(email -> new ExternalIdentity("github", String.valueOf(profile.getValue("id")),
                profile.getString("login"),
                email == null ? null : email.getString("email"),
                email != null && email.getBoolean("verified", false),
                displayName(profile)))));
  }

  private Future<JsonObject> primaryEmail(User user) {
    return web.getAbs(apiUrl + "/user/emails")
        .putHeader("Authorization", "Bearer " + user.principal().getString("access_token"))
        .putHeader("Accept", "application/vnd.github+json")
        .putHeader("User-Agent", "gpu-rental-gateway")
        .send()
        .map(response -> {
          if (response.statusCode() != 200) {
            throw new IllegalStateException("GitHub /user/emails answered " + response.statusCode());
          }
          JsonArray emails = response.bodyAsJsonArray();
          for (int i = 0; i < emails.size(); i++) {
            JsonObject email = emails.getJsonObject(i);
            if (email.getBoolean("primary", false)) {
              return email;
            }
          }
          return null;
        });
  }

  private static String displayName(JsonObject profile) {
    String name = profile.getString("name");
    return name == null || name.isBlank() ? profile.getString("login") : name;
  }
}
