package io.gpurental.gateway.sandbox.identity;

import io.gpurental.gateway.config.AuthConfig;
import io.gpurental.gateway.platform.Feature;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Offline stand-ins for GitHub (OAuth2 + REST {@code /user}, {@code /user/emails}) and Google
 * (OpenID Connect: discovery, JWKS, RS256 id_tokens), mounted under {@code /sandbox/github} and
 * {@code /sandbox/google} in sandbox mode only. They enforce what the real ones do: client
 * credentials, exact redirect URIs, single-use codes and PKCE S256.
 *
 * <p>Scripts and tests may skip the chooser page with {@code login=<name>} (GitHub) or
 * {@code login_hint=<email>} (Google). The Google stand-in also takes
 * {@code fault=wrong_audience|wrong_issuer|expired|bad_signature} to issue a defective id_token,
 * so the gateway's refusal of each can be tested.
 */
public final class SandboxIdentityProviders implements Feature {
  private static final String GITHUB = "/sandbox/github";
  private static final String GOOGLE = "/sandbox/google";
  private final AuthConfig.Provider github;
  private final AuthConfig.Provider google;
  private final String publicBase;
  private final AuthorizationCodes codes;
  private final SigningKey key;

  public SandboxIdentityProviders(Vertx vertx, AuthConfig auth, String publicBase) {
    this.github = auth.github().filter(AuthConfig.Provider::sandbox).orElse(null);
    this.google = auth.google().filter(AuthConfig.Provider::sandbox).orElse(null);
    this.publicBase = publicBase;
    this.codes = new AuthorizationCodes(vertx);
    this.key = new SigningKey(vertx);
  }

  @Override
  public void mount(Router router) {
    if (github != null) {
      router.get(GITHUB + "/login/oauth/authorize").handler(ctx -> authorize(ctx, Flavor.GITHUB, ctx.queryParams()));
      router.post(GITHUB + "/login/oauth/authorize").handler(ctx -> authorize(ctx, Flavor.GITHUB, ctx.request().formAttributes()));
      router.post(GITHUB + "/login/oauth/access_token").handler(ctx -> token(ctx, Flavor.GITHUB));
      router.get(GITHUB + "/api/user").handler(ctx -> withPerson(ctx, person -> person.getJsonObject("user")));
      router.get(GITHUB + "/api/user/emails").handler(ctx -> withPerson(ctx, person -> person.getJsonArray("emails")));
    }
    if (google != null) {
      router.get(GOOGLE + "/.well-known/openid-configuration").handler(this::discovery);
      router.get(GOOGLE + "/oauth2/v3/certs").handler(ctx -> key.get()
          .onSuccess(loaded -> ctx.json(loaded.jwks())).onFailure(ctx::fail));
      router.get(GOOGLE + "/o/oauth2/v2/auth").handler(ctx -> authorize(ctx, Flavor.GOOGLE, ctx.queryParams()));
      router.post(GOOGLE + "/o/oauth2/v2/auth").handler(ctx -> authorize(ctx, Flavor.GOOGLE, ctx.request().formAttributes()));
      router.post(GOOGLE + "/token").handler(ctx -> token(ctx, Flavor.GOOGLE));
      router.get(GOOGLE + "/v1/userinfo").handler(ctx -> withPerson(ctx, person -> person.getJsonObject("claims")));
    }
  }

  private enum Flavor { GITHUB, GOOGLE }

  private AuthConfig.Provider client(Flavor flavor) {
    return flavor == Flavor.GITHUB ? github : google;
  }

  private void authorize(RoutingContext ctx, Flavor flavor, MultiMap params) {
    AuthConfig.Provider client = client(flavor);
    String redirectUri = params.get("redirect_uri");
    if (!client.clientId().equals(params.get("client_id")) || redirectUri == null
        || !redirectUri.equals(publicBase + "/auth/" + flavor.name().toLowerCase() + "/callback")) {
      ctx.response().setStatusCode(400).putHeader("Content-Type", "text/plain; charset=utf-8")
          .end("Unknown client_id or redirect_uri not registered for it.");
      return;
    }
    String state = params.get("state");
    if (!"S256".equals(params.get("code_challenge_method")) || params.get("code_challenge") == null) {
      redirect(ctx, redirectUri, Map.of("error", "invalid_request",
          "error_description", "PKCE with code_challenge_method=S256 is required", "state", nullToEmpty(state)));
      return;
    }
    if ("deny".equals(params.get("decision"))) {
      redirect(ctx, redirectUri, Map.of("error", "access_denied", "state", nullToEmpty(state)));
      return;
    }
    String field = flavor == Flavor.GITHUB ? "login" : "login_hint";
    String chosen = firstNonBlank(params.get(field), params.get(field + "_typed"));
    if (chosen == null) {
      page(ctx, flavor, params, null);
      return;
    }
    JsonObject person = flavor == Flavor.GITHUB ? githubPerson(chosen) : googlePerson(chosen);
    if (person == null) {
      page(ctx, flavor, params, flavor == Flavor.GITHUB ? "Type a GitHub-style login (letters, digits, dashes)."
          : "Type an email address.");
      return;
    }
    JsonObject grant = new JsonObject()
        .put("client_id", client.clientId())
        .put("redirect_uri", redirectUri)
        .put("code_challenge", params.get("code_challenge"))
        .put("nonce", params.get("nonce"))
        .put("fault", params.get("fault"))
        .put("person", person);
    codes.issue(grant).onSuccess(code -> redirect(ctx, redirectUri, Map.of("code", code, "state", nullToEmpty(state))))
        .onFailure(ctx::fail);
  }

  private void page(RoutingContext ctx, Flavor flavor, MultiMap params, String error) {
    Map<String, String> carried = new LinkedHashMap<>();
    for (String name : List.of("client_id", "redirect_uri", "state", "scope", "response_type", "code_challenge",
        "code_challenge_method", "nonce", "fault")) {
      if (params.get(name) != null) {
        carried.put(name, params.get(name));
      }
    }
    boolean gh = flavor == Flavor.GITHUB;
    String html = ChooserPage.render(gh ? "GitHub" : "Google", ctx.request().path(), gh ? "login" : "login_hint",
        gh ? "a GitHub login" : "an email address",
        gh ? TestPeople.SUGGESTED_LOGINS : TestPeople.SUGGESTED_LOGINS.stream().map(TestPeople::githubEmail).toList(),
        carried, error);
    ctx.response().putHeader("Content-Type", "text/html; charset=utf-8").putHeader("Cache-Control", "no-store").end(html);
  }

  private void token(RoutingContext ctx, Flavor flavor) {
    AuthConfig.Provider client = client(flavor);
    MultiMap form = ctx.request().formAttributes();
    String[] credentials = clientCredentials(ctx, form);
    if (!client.clientId().equals(credentials[0]) || !client.clientSecret().equals(credentials[1])) {
      oauthError(ctx, 401, new AuthorizationCodes.OAuthError("invalid_client", "Client authentication failed."));
      return;
    }
    codes.redeem(form.get("code"), client.clientId(), form.get("redirect_uri"), form.get("code_verifier"))
        .compose(grant -> flavor == Flavor.GITHUB ? githubToken(grant) : googleToken(grant))
        .onSuccess(ctx::json)
        .onFailure(failure -> {
          if (failure instanceof AuthorizationCodes.OAuthError error) {
            // GitHub answers token errors with 200 and an error body; OAuth 2.0 servers with 400
            oauthError(ctx, flavor == Flavor.GITHUB ? 200 : 400, error);
          } else {
            ctx.fail(failure);
          }
        });
  }

  private Future<JsonObject> githubToken(JsonObject grant) {
    return codes.issueAccessToken("gho_", grant.getJsonObject("person")).map(token -> new JsonObject()
        .put("access_token", token).put("token_type", "bearer").put("scope", "read:user,user:email"));
  }

  private Future<JsonObject> googleToken(JsonObject grant) {
    JsonObject claims = grant.getJsonObject("person").getJsonObject("claims");
    return IdTokens.claims(claims, grant, google.clientId(), publicBase + GOOGLE)
        .compose(idClaims -> key.sign(idClaims))
        .map(idToken -> IdTokens.applySignatureFault(idToken, grant.getString("fault")))
        .compose(idToken -> codes.issueAccessToken("ya29.", grant.getJsonObject("person")).map(token -> new JsonObject()
            .put("access_token", token).put("token_type", "Bearer").put("expires_in", 3599)
            .put("scope", "openid email profile").put("id_token", idToken)));
  }

  private void discovery(RoutingContext ctx) {
    String issuer = publicBase + GOOGLE;
    ctx.json(new JsonObject()
        .put("issuer", issuer)
        .put("authorization_endpoint", issuer + "/o/oauth2/v2/auth")
        .put("token_endpoint", issuer + "/token")
        .put("userinfo_endpoint", issuer + "/v1/userinfo")
        .put("jwks_uri", issuer + "/oauth2/v3/certs")
        .put("response_types_supported", new JsonArray().add("code"))
        .put("subject_types_supported", new JsonArray().add("public"))
        .put("id_token_signing_alg_values_supported", new JsonArray().add("RS256"))
        .put("scopes_supported", new JsonArray().add("openid").add("email").add("profile"))
        .put("token_endpoint_auth_methods_supported", new JsonArray().add("client_secret_post").add("client_secret_basic"))
        .put("code_challenge_methods_supported", new JsonArray().add("S256"))
        .put("claims_supported", new JsonArray().add("sub").add("email").add("email_verified").add("name")));
  }

  private void withPerson(RoutingContext ctx, java.util.function.Function<JsonObject, Object> view) {
    codes.person(ctx.request().getHeader("Authorization")).onSuccess(person -> {
      if (person == null) {
        ctx.response().setStatusCode(401).putHeader("Content-Type", "application/json")
            .end(new JsonObject().put("message", "Bad credentials").encode());
      } else {
        Object body = view.apply(person);
        ctx.response().putHeader("Content-Type", "application/json")
            .end(body instanceof JsonArray array ? array.encode() : ((JsonObject) body).encode());
      }
    }).onFailure(ctx::fail);
  }

  private static JsonObject githubPerson(String login) {
    if (!TestPeople.validLogin(login)) {
      return null;
    }
    long id = TestPeople.githubId(login);
    String email = TestPeople.githubEmail(login);
    return new JsonObject()
        .put("user", new JsonObject().put("id", id).put("login", login).put("name", TestPeople.displayName(login))
            .put("email", email).put("type", "User"))
        .put("emails", new JsonArray().add(new JsonObject().put("email", email).put("primary", true)
            .put("verified", true).put("visibility", "private")));
  }

  private static JsonObject googlePerson(String email) {
    if (!TestPeople.validEmail(email)) {
      return null;
    }
    return new JsonObject().put("claims", new JsonObject()
        .put("sub", TestPeople.googleSubject(email)).put("email", email).put("email_verified", true)
        .put("name", TestPeople.displayName(email)));
  }

  private static String[] clientCredentials(RoutingContext ctx, MultiMap form) {
    String header = ctx.request().getHeader("Authorization");
    if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
      try {
        String decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        int colon = decoded.indexOf(':');
        if (colon > 0) {
          return new String[] {decode(decoded.substring(0, colon)), decode(decoded.substring(colon + 1))};
        }
      } catch (IllegalArgumentException malformed) {
        return new String[] {null, null};
      }
    }
    return new String[] {form.get("client_id"), form.get("client_secret")};
  }

  private static String decode(String value) {
    return java.net.URLDecoder.decode(value, StandardCharsets.UTF_8);
  }

  private static void oauthError(RoutingContext ctx, int status, AuthorizationCodes.OAuthError error) {
    ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(error.toJson().encode());
  }

  private static void redirect(RoutingContext ctx, String base, Map<String, String> params) {
    StringBuilder url = new StringBuilder(base);
    char separator = base.contains("?") ? '&' : '?';
    for (Map.Entry<String, String> param : params.entrySet()) {
      url.append(separator).append(param.getKey()).append('=')
          .append(URLEncoder.encode(param.getValue(), StandardCharsets.UTF_8));
      separator = '&';
    }
    ctx.response().setStatusCode(302).putHeader("Location", url.toString()).end();
  }

  private static String firstNonBlank(String a, String b) {
    if (a != null && !a.isBlank()) {
      return a.trim();
    }
    return b != null && !b.isBlank() ? b.trim() : null;
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
