package io.gpurental.gateway.auth.tokens;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.auth.Scope;
import io.gpurental.gateway.config.RateLimitConfig;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.QueryNumbers;
import io.gpurental.gateway.platform.errors.Forbidden;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.platform.ratelimit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** {@code /tokens}: a signed-in person's API tokens. */
public final class TokensApi {
  private static final int DEFAULT_LIMIT = 20;
  private final TokenRepository tokens;
  private final RateLimiter limiter;
  private final RateLimitConfig limits;
  /** Told the account whose token was revoked (after it is stored). */
  private final Consumer<String> revoked;

  private final TokenBudgets budgets;
  private final String currency;

  public TokensApi(TokenRepository tokens, TokenBudgets budgets, String currency, RateLimiter limiter,
      RateLimitConfig limits, Consumer<String> revoked) {
    this.tokens = tokens;
    this.budgets = budgets;
    this.currency = currency;
    this.revoked = revoked;
    this.limiter = limiter;
    this.limits = limits;
  }

  public void bind(RouterBuilder api) {
    api.getRoute("listTokens").addHandler(this::list);
    api.getRoute("createToken").addHandler(this::create);
    api.getRoute("revokeToken").addHandler(this::revoke);
    api.getRoute("getToken").addHandler(ctx -> withBudget(Principal.required(ctx), ctx.pathParam("token_id"))
        .onSuccess(ctx::json).onFailure(ctx::fail));
    api.getRoute("setTokenBudget").addHandler(this::setBudget);
    api.getRoute("getDefaultBudget").addHandler(ctx -> defaultBudget(Principal.required(ctx).accountId())
        .onSuccess(ctx::json).onFailure(ctx::fail));
    api.getRoute("setDefaultBudget").addHandler(ctx -> changeDefault(ctx,
        Optional.of(TokenBudget.fromJson(currency, ctx.body().asJsonObject()))));
    api.getRoute("deleteDefaultBudget").addHandler(ctx -> changeDefault(ctx, Optional.empty()));
  }

  private Future<JsonObject> defaultBudget(String accountId) {
    return budgets.defaultFor(accountId).map(found -> new JsonObject()
        .put("default_budget", found.map(TokenBudget::toJson).orElse(null)));
  }

  /** Like a token's budget, the account's default is set by a person, never by a token. */
  private void changeDefault(RoutingContext ctx, Optional<TokenBudget> budget) {
    Principal caller = Principal.required(ctx);
    if (caller.method() != Principal.Method.SESSION) {
      throw new Forbidden("Only a signed-in person sets the account's default budget, never a token.");
    }
    budgets.setDefault(caller.accountId(), budget).compose(v -> defaultBudget(caller.accountId()))
        .onSuccess(ctx::json).onFailure(ctx::fail);
  }

  /** The token's JSON with {@code budget}: its caps, spending and what remains (null without a budget). */
  private Future<JsonObject> withBudget(Principal caller, String tokenId) {
    return tokens.find(caller.accountId(), tokenId).compose(found -> {
      ApiToken token = found.orElseThrow(() -> new NotFound("You have no token " + tokenId + "."));
      return budgets.report(caller.accountId(), tokenId).map(report -> token.toJson().put("budget", report.orElse(null)));
    });
  }

  /** People set budgets; a token, even one with every scope, never changes its own or another's. */
  private void setBudget(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    if (caller.method() != Principal.Method.SESSION) {
      throw new Forbidden("Only a signed-in person sets a token's budget, never a token.");
    }
    String tokenId = ctx.pathParam("token_id");
    TokenBudget budget = TokenBudget.fromJson(currency, ctx.body().asJsonObject());
    budgets.repository().set(caller.accountId(), tokenId, budget)
        .compose(found -> found ? withBudget(caller, tokenId)
            : Future.failedFuture(new NotFound("You have no token " + tokenId + ".")))
        .onSuccess(ctx::json).onFailure(ctx::fail);
  }

  private void list(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    int limit = QueryNumbers.limit(ctx, DEFAULT_LIMIT);
    Optional<Page.Position> after = Optional.ofNullable(ctx.request().getParam("cursor")).map(Page::decode);
    tokens.list(caller.accountId(), after, limit)
        .onSuccess(rows -> ctx.json(Page.of(rows, limit, ApiToken::toJson,
            token -> Page.encode(token.createdAt(), token.id()))))
        .onFailure(ctx::fail);
  }

  private void create(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    JsonObject body = ctx.body().asJsonObject();
    List<String> scopes = body.getJsonArray("scopes").stream().map(Object::toString).toList();
    if (scopes.contains(Scope.OPERATOR.id()) && !caller.isOperator()) {
      throw new Forbidden("Only operators can create tokens with the operator scope.");
    }
    OffsetDateTime expiresAt = expiry(body.getString("expires_at"));
    Optional<TokenBudget> given = Optional.ofNullable(body.getJsonObject("budget"))
        .map(budget -> TokenBudget.fromJson(currency, budget));
    String secret = TokenSecrets.generate();
    limiter.acquire("token-creation", caller.accountId(), limits.tokenCreationsPerHour(), Duration.ofHours(1),
            "token creations")
        .compose(v -> {
          String id = Ids.newId("tok");
          return tokens.create(id, caller.accountId(), body.getString("name").trim(), secret, scopes, expiresAt,
              tx -> budgets.forNewToken(tx, caller.accountId(), id, given));
        })
        .compose(token -> budgets.report(caller.accountId(), token.id())
            .map(report -> token.toJson().put("token", secret).put("budget", report.orElse(null))))
        .onSuccess(token -> ctx.response().setStatusCode(201)
            .putHeader("Content-Type", "application/json")
            .end(token.encode()))
        .onFailure(ctx::fail);
  }

  private void revoke(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    String tokenId = ctx.pathParam("token_id");
    tokens.revoke(caller.accountId(), tokenId).onSuccess(found -> {
      if (found) {
        revoked.accept(caller.accountId());
        ctx.response().setStatusCode(204).end();
      } else {
        ctx.fail(new NotFound("You have no token " + tokenId + "."));
      }
    }).onFailure(ctx::fail);
  }

  private static OffsetDateTime expiry(String value) {
    if (value == null) {
      return null;
    }
    OffsetDateTime expiresAt;
    try {
      expiresAt = OffsetDateTime.parse(value);
    } catch (DateTimeParseException e) {
      throw new Invalid("expires_at is not an RFC 3339 date-time",
          List.of(new Invalid.FieldError("#/expires_at", "use e.g. 2027-01-31T00:00:00Z")));
    }
    if (!expiresAt.isAfter(OffsetDateTime.now())) {
      throw new Invalid("expires_at must be in the future",
          List.of(new Invalid.FieldError("#/expires_at", "must be after now")));
    }
    return expiresAt;
  }
}
