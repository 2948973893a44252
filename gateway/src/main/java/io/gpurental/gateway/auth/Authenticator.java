package io.gpurental.gateway.auth;

import io.gpurental.gateway.auth.tokens.TokenRepository;
import io.gpurental.gateway.auth.tokens.TokenSecrets;
import io.gpurental.gateway.config.RateLimitConfig;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.Unauthorized;
import io.gpurental.gateway.platform.ratelimit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.gpurental.gateway.platform.ApiContract;
import io.vertx.openapi.contract.Operation;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Works out who calls {@code /api/v1} (bearer token, else session cookie, else nobody), checks
 * CSRF for cookie writes, applies the operation's security requirements and the write rate
 * limit, then lets the request through with its {@link Principal} attached.
 */
public final class Authenticator implements Handler<RoutingContext> {
  /** Which operation's security this request has passed (see {@link AuthFeature}'s per-route guard). */
  static final String CHECKED_OPERATION = "security.checkedOperation";
  /** Stripe's webhook deliveries come from few addresses and must never be turned away. */
  private static final Set<String> UNLIMITED_OPERATIONS = Set.of("receiveStripeWebhook");
  private static final String DESIRED_STATE = "getDesiredState";
  private static final List<String> QUERY_TOKEN_NAMES = List.of("access_token", "token", "api_key", "apikey");
  private final ApiContract contract;
  private final Sessions sessions;
  private final TokenRepository tokens;
  private final AccountRepository accounts;
  private final Csrf csrf;
  private final RateLimiter limiter;
  private final RateLimitConfig limits;
  private final HostCredentials hosts;

  public Authenticator(ApiContract contract, Sessions sessions, TokenRepository tokens, AccountRepository accounts,
      Csrf csrf, RateLimiter limiter, RateLimitConfig limits, HostCredentials hosts) {
    this.hosts = hosts;
    this.contract = contract;
    this.sessions = sessions;
    this.tokens = tokens;
    this.accounts = accounts;
    this.csrf = csrf;
    this.limiter = limiter;
    this.limits = limits;
  }

  @Override
  public void handle(RoutingContext ctx) {
    for (String name : QUERY_TOKEN_NAMES) {
      if (ctx.queryParams().contains(name)) {
        ctx.fail(new Invalid("Tokens in the URL are refused (URLs end up in logs): send Authorization: Bearer <token>."));
        return;
      }
    }
    Future.succeededFuture().compose(v -> caller(ctx))
        .compose(caller -> {
          caller.ifPresent(principal -> principal.attachTo(ctx));
          Operation operation = contract.contract().findOperation(ctx.normalizedPath(), ctx.request().method());
          if (operation != null) {
            AccessPolicy.check(contract.securityOf(operation.getOperationId()), caller);
            ctx.put(CHECKED_OPERATION, operation.getOperationId());
          }
          if (operation != null && DESIRED_STATE.equals(operation.getOperationId())) {
            return limiter.acquire("agent-polls", "host:" + caller.orElseThrow().accountId(),
                limits.agentPollsPerMinute(), Duration.ofMinutes(1), "desired-state fetches");
          }
          boolean limited = Csrf.changesState(ctx.request().method())
              && (operation == null || !UNLIMITED_OPERATIONS.contains(operation.getOperationId()));
          return limited ? limitWrites(ctx, caller) : Future.<Void>succeededFuture();
        })
        .onSuccess(v -> ctx.next())
        .onFailure(ctx::fail);
  }

  private Future<Optional<Principal>> caller(RoutingContext ctx) {
    String authorization = ctx.request().getHeader("Authorization");
    if (authorization != null) {
      return bearer(authorization).map(Optional::of);
    }
    Optional<String> account = sessions.apiAccountOf(ctx);
    if (account.isEmpty()) {
      return Future.succeededFuture(Optional.empty());
    }
    if (Csrf.changesState(ctx.request().method())) {
      csrf.check(ctx);
    }
    return sessionPrincipal(account.get()).map(Optional::of);
  }

  /** A signed-in person as the API sees them: their roles now; refused while suspended. */
  Future<Principal> sessionPrincipal(String accountId) {
    return accounts.access(accountId).map(access -> {
      if (access.suspension().isPresent()) {
        throw access.suspension().get().refusal();
      }
      Set<String> roles = Roles.withRenter(access.roles());
      return new Principal(accountId, roles, Scope.allowedFor(roles), Principal.Method.SESSION, Optional.empty());
    });
  }

  /** The caller an {@code Authorization} header names (API token, host credential or enrolment token). */
  Future<Principal> bearer(String authorization) {
    if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Future.failedFuture(new Unauthorized("Use Authorization: Bearer <token>."));
    }
    String secret = authorization.substring(7).trim();
    if (TokenSecrets.wellFormed(TokenSecrets.HOST_PREFIX, secret)) {
      return hosts.hostOf(secret).map(host -> host.map(Principal::host)
          .orElseThrow(() -> new Unauthorized("The host credential is unknown or revoked.")));
    }
    if (TokenSecrets.wellFormed(TokenSecrets.ENROLMENT_PREFIX, secret)) {
      return Future.succeededFuture(Principal.enrolment()); // the fleet checks and spends it in the enrolment
    }
    if (TokenSecrets.wellFormed(TokenSecrets.OAUTH_ACCESS_PREFIX, secret)) {
      return Future.failedFuture(new Unauthorized("OAuth access tokens are for the MCP endpoint (/mcp) only: "
          + "use an API token (gpr_…) here."));
    }
    if (!TokenSecrets.wellFormed(secret)) {
      return Future.failedFuture(new Unauthorized("This is not a gateway API token (they start with gpr_)."));
    }
    return tokens.authenticate(secret).map(owner -> principalOf(
        owner.orElseThrow(() -> new Unauthorized("The token is unknown, expired or revoked."))));
  }

  /**
   * The caller an OAuth access token names, checked like an API token (its grant is one), and
   * only for the resource it was issued for (RFC 8707): a token of another audience is refused.
   */
  Future<Principal> oauthBearer(String secret, String resource) {
    if (!TokenSecrets.wellFormed(TokenSecrets.OAUTH_ACCESS_PREFIX, secret)) {
      return Future.failedFuture(new Unauthorized("This is not an OAuth access token of this gateway."));
    }
    return tokens.authenticateOAuth(secret).map(found -> {
      TokenRepository.OAuthOwner owner = found.orElseThrow(
          () -> new Unauthorized("The access token is unknown, expired or revoked: refresh it or authorize again."));
      if (!owner.resource().equals(resource)) {
        throw new Unauthorized("The access token was issued for " + owner.resource() + ", not for " + resource + ".");
      }
      return principalOf(owner.owner());
    });
  }

  private Principal principalOf(TokenRepository.TokenOwner token) {
    if (token.suspension().isPresent()) {
      throw token.suspension().get().refusal();
    }
    Set<String> roles = Roles.withRenter(token.roles());
    Set<Scope> scopes = EnumSet.noneOf(Scope.class);
    token.scopes().forEach(id -> Scope.fromId(id).ifPresent(scopes::add));
    // a token never exceeds what its account may do now (e.g. after losing the operator role)
    scopes.retainAll(Scope.allowedFor(roles));
    if (token.touchDue()) {
      tokens.touch(token.tokenId());
    }
    return new Principal(token.accountId(), roles, scopes, Principal.Method.TOKEN, Optional.of(token.tokenId()));
  }

  /** A write made outside {@code /api/v1} with an API token (MCP tool calls): the token's write limit. */
  Future<Void> limitTokenWrites(Principal caller) {
    String subject = caller.tokenId().map(id -> "token:" + id).orElse("account:" + caller.accountId());
    return limiter.acquire("writes", subject, limits.writesPerMinute(), Duration.ofMinutes(1), "write requests");
  }

  /** Per token, per signed-in account, or (anonymous writes such as quotes) per client address. */
  private Future<Void> limitWrites(RoutingContext ctx, Optional<Principal> caller) {
    String subject = caller.filter(principal -> principal.method() != Principal.Method.ENROLMENT)
        .map(principal -> principal.tokenId().map(id -> "token:" + id)
            .orElse((principal.method() == Principal.Method.HOST ? "host:" : "account:") + principal.accountId()))
        .orElseGet(() -> "ip:" + (ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().hostAddress()));
    return limiter.acquire("writes", subject, limits.writesPerMinute(), Duration.ofMinutes(1), "write requests");
  }
}
