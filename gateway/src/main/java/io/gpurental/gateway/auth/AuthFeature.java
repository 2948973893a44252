package io.gpurental.gateway.auth;

import io.gpurental.gateway.auth.oauth.GrantsApi;
import io.gpurental.gateway.auth.oauth.OAuthRepository;
import io.gpurental.gateway.auth.oauth.OAuthServer;
import io.gpurental.gateway.auth.signin.AccountLinker;
import io.gpurental.gateway.auth.signin.GithubProvider;
import io.gpurental.gateway.auth.signin.GoogleProvider;
import io.gpurental.gateway.auth.signin.IdentityProvider;
import io.gpurental.gateway.auth.signin.SignInRoutes;
import io.gpurental.gateway.auth.tokens.TokenRepository;
import io.gpurental.gateway.auth.tokens.TokenBudgetRepository;
import io.gpurental.gateway.auth.tokens.TokenBudgets;
import io.gpurental.gateway.auth.tokens.DefaultBudgetRepository;
import io.gpurental.gateway.auth.tokens.TokensApi;
import io.gpurental.gateway.config.GatewayConfig;
import io.gpurental.gateway.platform.ratelimit.RateLimiter;
import io.gpurental.gateway.platform.errors.Unauthorized;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.gpurental.gateway.platform.ApiContract;
import io.vertx.sqlclient.Pool;
import java.util.LinkedHashMap;
import java.util.Map;

/** Sign-in, sessions, API tokens, roles: who may call what. */
public final class AuthFeature implements io.gpurental.gateway.platform.Feature {
  private final Sessions sessions;
  private final SignInRoutes signIn;
  private final Authenticator authenticator;
  private final AccountApi accountApi;
  private final TokensApi tokensApi;
  private final TokenBudgets tokenBudgets;
  private final ApiContract contract;
  private final Credentials credentials;
  private final AccountAdmin accountAdmin;
  private final AccountRepository accounts;
  private final Csrf csrf;
  private final OAuthServer oauth;
  private final GrantsApi grantsApi;
  /** The one resource OAuth access tokens are issued for: the MCP endpoint (RFC 8707). */
  private final String mcpResource;

  public AuthFeature(Vertx vertx, GatewayConfig config, Pool pool, ApiContract contract, RateLimiter limiter,
      HostCredentials hosts) {
    AccountRepository accounts = new AccountRepository(pool);
    TokenRepository tokens = new TokenRepository(pool);
    Csrf csrf = new Csrf(config.http().publicUrl());
    this.csrf = csrf;
    this.accounts = accounts;
    this.sessions = new Sessions(vertx, config.http(), config.auth());
    WebClient web = WebClient.create(vertx);
    Map<String, IdentityProvider> providers = new LinkedHashMap<>();
    config.auth().github().ifPresent(github -> providers.put("github", new GithubProvider(vertx, github, web)));
    config.auth().google().ifPresent(google -> providers.put("google", new GoogleProvider(vertx, google)));
    this.signIn = new SignInRoutes(providers, sessions, new AccountLinker(accounts, new ConfigRoles(config.auth())), csrf, limiter,
        config.rateLimits(), config.http().publicUrl());
    this.authenticator = new Authenticator(contract, sessions, tokens, accounts, csrf, limiter, config.rateLimits(),
        hosts);
    this.tokenBudgets = new TokenBudgets(new TokenBudgetRepository(pool), new DefaultBudgetRepository(pool));
    this.tokensApi = new TokensApi(tokens, tokenBudgets, config.pricing().currency(), limiter, config.rateLimits(),
        account -> CredentialEvents.changed(vertx, account));
    this.credentials = new Credentials(sessions, tokens, accounts);
    this.accountAdmin = new AccountAdmin(vertx, pool, accounts, new ConfigRoles(config.auth()));
    this.accountApi = new AccountApi(vertx, accounts, accountAdmin);
    this.contract = contract;
    String publicBase = config.http().publicUrl().toString().replaceAll("/+$", "");
    this.mcpResource = publicBase + "/mcp";
    OAuthRepository grants = new OAuthRepository(pool);
    this.oauth = new OAuthServer(vertx, grants, sessions, config.auth().oauth(), config.http().publicUrl(),
        java.util.List.of(mcpResource), MCP_SCOPES, config.pricing().currency(), limiter, config.rateLimits(),
        account -> CredentialEvents.changed(vertx, account), tokenBudgets::defaultFor);
    this.grantsApi = new GrantsApi(grants, account -> CredentialEvents.changed(vertx, account));
  }

  /** What MCP clients may ask for: the scopes the MCP tools declare. */
  private static final java.util.List<String> MCP_SCOPES =
      java.util.List.of(Scope.CATALOG_READ.id(), Scope.RESERVATIONS_READ.id(), Scope.RESERVATIONS_WRITE.id());

  /**
   * The API token an {@code Authorization: Bearer gpr_…} header carries (or an OAuth access token
   * issued for the MCP endpoint, whose grant is checked as an API token), checked exactly as for
   * {@code /api/v1} (expiry, revocation, suspension, the scopes the account may still hold); fails
   * with {@code Unauthorized} otherwise. For the MCP endpoint, which is outside the API's router.
   */
  public Future<Principal> apiToken(String authorization) {
    if (authorization == null) {
      return Future.failedFuture(new Unauthorized(
          "Send Authorization: Bearer <API token or OAuth access token>."));
    }
    if (authorization.regionMatches(true, 0, "Bearer " + io.gpurental.gateway.auth.tokens.TokenSecrets.OAUTH_ACCESS_PREFIX,
        0, 7 + io.gpurental.gateway.auth.tokens.TokenSecrets.OAUTH_ACCESS_PREFIX.length())) {
      return authenticator.oauthBearer(authorization.substring(7).trim(), mcpResource);
    }
    return authenticator.bearer(authorization).map(principal -> {
      if (principal.method() != Principal.Method.TOKEN) {
        throw new Unauthorized("Only API tokens (gpr_…) are accepted here.");
      }
      return principal;
    });
  }

  /** Deletes expired OAuth codes and tokens (a cluster job). */
  public Future<Long> pruneOAuth() {
    return oauth.repository().prune();
  }

  /** Counts a write made with a token outside the API (an MCP tool call) against the token's write limit. */
  public Future<Void> limitWrites(Principal caller) {
    return authenticator.limitTokenWrites(caller);
  }

  /** Tokens' budgets as reported (owners, agents); the reservations feature registers the spending. */
  public TokenBudgets tokenBudgets() {
    return tokenBudgets;
  }

  /** The session handler, for pages outside the API that need to know who is signed in. */
  public Handler<RoutingContext> sessionHandler() {
    return sessions.handler();
  }

  /** The person signed in on this request's session, as the API would see them (not while suspended). */
  public Future<Optional<Principal>> signedIn(RoutingContext ctx) {
    Optional<String> account = sessions.accountOf(ctx);
    return account.isEmpty() ? Future.succeededFuture(Optional.empty())
        : authenticator.sessionPrincipal(account.get()).map(Optional::of);
  }

  /** The session's CSRF token, for a form on a page outside the API to send back. */
  public Optional<String> csrfToken(RoutingContext ctx) {
    return Sessions.csrfToken(ctx);
  }

  /** Fails with 403 unless a form POST comes from this site with the session's CSRF token. */
  public void checkForm(RoutingContext ctx, String csrfToken) {
    csrf.checkForm(ctx, csrfToken);
  }

  /** The account's primary e-mail address, if it has one. */
  public Future<Optional<String>> emailOf(String accountId) {
    return accounts.describe(accountId).map(found -> found.map(account -> account.getString("primary_email")));
  }

  public Credentials credentials() {
    return credentials;
  }

  /** The operator's administration of accounts: search, operator role, suspension. */
  public AccountAdmin accountAdmin() {
    return accountAdmin;
  }

  /**
   * Checks the operation's security unless the root handler already did: fails closed should
   * the root handler not have matched the request to this operation by its path.
   */
  @Override
  public Optional<Handler<RoutingContext>> operationGuard(String operationId) {
    return Optional.of(ctx -> {
      if (!operationId.equals(ctx.get(Authenticator.CHECKED_OPERATION))) {
        AccessPolicy.check(contract.securityOf(operationId), Principal.of(ctx));
      }
      ctx.next();
    });
  }

  @Override
  public void mount(Router router) {
    signIn.mount(router);
    oauth.mount(router);
  }

  @Override
  public Future<Void> close() {
    return oauth.close();
  }

  @Override
  public void bind(RouterBuilder api) {
    api.rootHandler(sessions.apiHandler()).rootHandler(authenticator);
    accountApi.bind(api);
    tokensApi.bind(api);
    grantsApi.bind(api);
  }
}
