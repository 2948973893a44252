package io.gpurental.gateway.auth.oauth;

import io.gpurental.gateway.auth.Sessions;
import io.gpurental.gateway.auth.tokens.TokenBudget;
import io.gpurental.gateway.config.AuthConfig;
import io.gpurental.gateway.config.RateLimitConfig;
import io.gpurental.gateway.platform.ratelimit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The gateway as the OAuth 2.1 authorization server of its MCP endpoint: metadata (RFC 8414),
 * dynamic registration (RFC 7591) beside client metadata documents, authorization with PKCE S256
 * and consent, the token endpoint and revocation (RFC 7009). The endpoints MCP clients call from
 * anywhere (metadata, registration, token, revocation) carry no cookies and allow any origin.
 */
public final class OAuthServer {
  public static final String METADATA_PATH = "/.well-known/oauth-authorization-server";
  private final String issuer;
  private final List<String> scopes;
  private final OAuthRepository repository;
  private final OAuthClients clients;
  private final AuthorizationEndpoint authorization;
  private final TokenEndpoint tokens;
  private final RateLimiter limiter;
  private final RateLimitConfig limits;
  private final Consumer<String> revoked;

  /**
   * @param resources the resources tokens may be issued for (RFC 8707), the first the default
   * @param revoked told the account whose grant was revoked, after it is stored
   * @param defaultBudget the account's default budget for new grants, which the consent form starts from
   */
  public OAuthServer(Vertx vertx, OAuthRepository repository, Sessions sessions, AuthConfig.OAuthServer config,
      URI publicUrl, List<String> resources, List<String> scopes, String currency, RateLimiter limiter,
      RateLimitConfig limits, Consumer<String> revoked, Function<String, Future<Optional<TokenBudget>>> defaultBudget) {
    this.issuer = publicUrl.toString().replaceAll("/+$", "");
    this.scopes = scopes;
    this.repository = repository;
    this.limiter = limiter;
    this.limits = limits;
    this.revoked = revoked;
    this.clients = new OAuthClients(vertx, repository, config.loopbackClientIds());
    URI base = URI.create(issuer);
    String origin = base.getScheme() + "://" + base.getRawAuthority();
    this.authorization = new AuthorizationEndpoint(clients, repository, sessions, issuer, origin, resources, scopes,
        currency, defaultBudget);
    this.tokens = new TokenEndpoint(repository, config.accessTokenLifetime(), revoked);
  }

  public void mount(Router router) {
    String metadata = metadata().encodePrettily();
    for (String path : new String[] {METADATA_PATH, "/oauth/token", "/oauth/register", "/oauth/revoke"}) {
      router.options(path).handler(this::preflight);
    }
    router.get(METADATA_PATH).handler(ctx -> cors(ctx).putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "max-age=3600").end(metadata));
    router.post("/oauth/register").handler(this::register);
    router.post("/oauth/token").handler(ctx -> {
      cors(ctx);
      Future.succeededFuture(ctx.request().formAttributes()).compose(tokens::exchange)
          .onSuccess(body -> ctx.response().putHeader("Content-Type", "application/json")
              .putHeader("Cache-Control", "no-store").end(body.encode()))
          .onFailure(failure -> TokenEndpoint.fail(ctx, failure));
    });
    router.post("/oauth/revoke").handler(this::revoke);
    // an authorization may fetch a client's metadata document: as many as sign-ins per address
    router.get("/oauth/authorize").handler(ctx -> limiter.acquire("oauth-authorizations", clientIp(ctx),
            limits.signInsPerMinute(), Duration.ofMinutes(1), "authorization requests")
        .onSuccess(v -> ctx.next()).onFailure(ctx::fail));
    authorization.mount(router);
  }

  /** RFC 8414 metadata, with the client metadata document support of the MCP authorization spec. */
  JsonObject metadata() {
    return new JsonObject()
        .put("issuer", issuer)
        .put("authorization_endpoint", issuer + "/oauth/authorize")
        .put("token_endpoint", issuer + "/oauth/token")
        .put("registration_endpoint", issuer + "/oauth/register")
        .put("revocation_endpoint", issuer + "/oauth/revoke")
        .put("scopes_supported", new JsonArray(scopes))
        .put("response_types_supported", new JsonArray().add("code"))
        .put("response_modes_supported", new JsonArray().add("query"))
        .put("grant_types_supported", new JsonArray().add("authorization_code").add("refresh_token"))
        .put("code_challenge_methods_supported", new JsonArray().add("S256"))
        .put("token_endpoint_auth_methods_supported", new JsonArray().add("none"))
        .put("revocation_endpoint_auth_methods_supported", new JsonArray().add("none"))
        .put("client_id_metadata_document_supported", true)
        .put("authorization_response_iss_parameter_supported", true);
  }

  private void register(RoutingContext ctx) {
    cors(ctx);
    limiter.acquire("oauth-registrations", clientIp(ctx), limits.tokenCreationsPerHour(), Duration.ofHours(1),
            "client registrations")
        .compose(v -> {
          JsonObject request;
          try {
            request = ctx.body().asJsonObject();
          } catch (RuntimeException e) {
            request = null;
          }
          if (request == null) {
            return Future.failedFuture(OAuthError.invalidClientMetadata("send the client metadata as a JSON object"));
          }
          return clients.register(request);
        })
        .onSuccess(client -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
            .putHeader("Cache-Control", "no-store").end(new JsonObject().put("client_id", client.id())
                .put("client_id_issued_at", System.currentTimeMillis() / 1000).put("client_name", client.name())
                .put("redirect_uris", new JsonArray(client.redirectUris()))
                .put("grant_types", new JsonArray().add("authorization_code").add("refresh_token"))
                .put("response_types", new JsonArray().add("code"))
                .put("token_endpoint_auth_method", "none").encode()))
        .onFailure(failure -> TokenEndpoint.fail(ctx, failure));
  }

  /** RFC 7009: 200 whether or not the token was known. */
  private void revoke(RoutingContext ctx) {
    cors(ctx);
    Future.succeededFuture(ctx.request().formAttributes())
        .compose(form -> repository.revokeToken(TokenEndpoint.required(form, "token")))
        .onSuccess(owner -> {
          owner.ifPresent(revoked);
          ctx.response().setStatusCode(200).putHeader("Cache-Control", "no-store").end();
        })
        .onFailure(failure -> TokenEndpoint.fail(ctx, failure));
  }

  private void preflight(RoutingContext ctx) {
    cors(ctx).putHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        .putHeader("Access-Control-Allow-Headers", "Content-Type, MCP-Protocol-Version")
        .putHeader("Access-Control-Max-Age", "600").setStatusCode(204).end();
  }

  private static io.vertx.core.http.HttpServerResponse cors(RoutingContext ctx) {
    return ctx.response().putHeader("Access-Control-Allow-Origin", "*");
  }

  private static String clientIp(RoutingContext ctx) {
    return ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().hostAddress();
  }

  /** The grants of an account, for its Account page. */
  public OAuthRepository repository() {
    return repository;
  }

  public Future<Void> close() {
    return clients.close();
  }
}
