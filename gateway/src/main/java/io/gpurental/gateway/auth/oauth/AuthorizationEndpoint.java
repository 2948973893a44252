package io.gpurental.gateway.auth.oauth;

import io.gpurental.gateway.auth.Sessions;
import io.gpurental.gateway.auth.tokens.TokenBudget;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.errors.Forbidden;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code GET /oauth/authorize} checks the request (client, redirect URI, PKCE S256, scopes,
 * resource) and keeps it in the browser's session; the person signs in with GitHub or Google as
 * anywhere else (the sign-in returns to the consent page), then {@code GET /oauth/consent} asks
 * and {@code POST /oauth/consent} (CSRF-checked) creates the grant and sends the code back.
 */
final class AuthorizationEndpoint {
  private static final String PENDING = "oauth.request.";
  private static final Duration PENDING_LIFETIME = Duration.ofMinutes(15);
  private static final int MAX_PENDING = 5;
  private final OAuthClients clients;
  private final OAuthRepository repository;
  private final Sessions sessions;
  private final String issuer;
  private final String origin;
  private final List<String> resources;
  private final List<String> scopes;
  private final String currency;
  private final Function<String, Future<Optional<TokenBudget>>> defaultBudget;

  AuthorizationEndpoint(OAuthClients clients, OAuthRepository repository, Sessions sessions, String issuer,
      String origin, List<String> resources, List<String> scopes, String currency,
      Function<String, Future<Optional<TokenBudget>>> defaultBudget) {
    this.defaultBudget = defaultBudget;
    this.clients = clients;
    this.repository = repository;
    this.sessions = sessions;
    this.issuer = issuer;
    this.origin = origin;
    this.resources = resources;
    this.scopes = scopes;
    this.currency = currency;
  }

  void mount(Router router) {
    router.route("/oauth/authorize").handler(sessions.handler());
    router.route("/oauth/consent").handler(sessions.handler());
    router.get("/oauth/authorize").handler(this::authorize);
    router.get("/oauth/consent").handler(this::ask);
    router.post("/oauth/consent").handler(this::decide);
  }

  private void authorize(RoutingContext ctx) {
    if (ctx.session() == null) {
      throw new Invalid("Authorization happens in a browser; send no Authorization header.");
    }
    MultiMap params = ctx.queryParams();
    String redirectUri = params.get("redirect_uri");
    clients.resolve(params.get("client_id"))
        .onFailure(failure -> refuse(ctx, "invalid_client", "Unknown or unusable client_id: " + failure.getMessage()
            + ". Register at POST /oauth/register or use a client metadata document URL."))
        .onSuccess(client -> {
          String redirect = redirectUri != null ? redirectUri
              : client.redirectUris().size() == 1 ? client.redirectUris().get(0) : null;
          if (redirect == null || !client.allowsRedirect(redirect)) {
            refuse(ctx, "invalid_request", "redirect_uri is missing or not one the client registered.");
            return;
          }
          String state = params.get("state");
          Optional<String[]> error = problem(params);
          if (error.isPresent()) {
            refuse(ctx, error.get()[0], error.get()[1]);
            return;
          }
          String requestId = Ids.randomBase62(24);
          keep(ctx, requestId, new JsonObject().put("client_id", client.id()).put("client_name", client.name())
              .put("redirect_uri", redirect).put("state", state).put("code_challenge", params.get("code_challenge"))
              .put("scope", requestedScopes(params)).put("resource", resourceOf(params))
              .put("at", System.currentTimeMillis()));
          String consent = "/oauth/consent?request=" + requestId;
          redirect(ctx, sessions.accountOf(ctx).isPresent() ? consent
              : "/signin?return_to=" + URLEncoder.encode(consent, StandardCharsets.UTF_8));
        });
  }

  /** A request refused before consent: an HTML 400 page, never a redirect to the client ({@link AuthorizationErrorPage}). */
  private static void refuse(RoutingContext ctx, String error, String description) {
    ctx.response().setStatusCode(400).putHeader("Content-Type", "text/html; charset=utf-8")
        .putHeader("Cache-Control", "no-store").putHeader("X-Frame-Options", "DENY")
        .putHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
        .end(AuthorizationErrorPage.render(error, description));
  }

  /** What is wrong with a request whose client and redirect URI are fine: [error, description]. */
  private Optional<String[]> problem(MultiMap params) {
    if (!"code".equals(params.get("response_type"))) {
      return Optional.of(new String[] {"unsupported_response_type", "response_type must be code"});
    }
    String challenge = params.get("code_challenge");
    if (challenge == null || !challenge.matches("[A-Za-z0-9_-]{43}")) {
      return Optional.of(new String[] {"invalid_request", "PKCE is required: send an S256 code_challenge"});
    }
    if (!"S256".equals(params.get("code_challenge_method"))) {
      return Optional.of(new String[] {"invalid_request", "code_challenge_method must be S256 (plain is refused)"});
    }
    List<String> asked = Arrays.asList(requestedScopes(params).split(" "));
    if (!scopes.containsAll(asked)) {
      return Optional.of(new String[] {"invalid_scope", "scopes offered: " + String.join(" ", scopes)});
    }
    if (!resources.contains(resourceOf(params))) {
      return Optional.of(new String[] {"invalid_target", "resource must be " + String.join(" or ", resources)});
    }
    return Optional.empty();
  }

  private String requestedScopes(MultiMap params) {
    String asked = params.get("scope");
    return asked == null || asked.isBlank() ? String.join(" ", scopes) : asked.trim().replaceAll(" +", " ");
  }

  private String resourceOf(MultiMap params) {
    String resource = params.get("resource");
    return resource == null ? resources.get(0) : resource.replaceAll("/+$", "");
  }

  private void ask(RoutingContext ctx) {
    String requestId = ctx.request().getParam("request");
    JsonObject pending = pending(ctx, requestId);
    Optional<String> account = sessions.accountOf(ctx);
    if (account.isEmpty()) {
      redirect(ctx, "/signin?return_to=" + URLEncoder.encode("/oauth/consent?request=" + requestId,
          StandardCharsets.UTF_8));
      return;
    }
    // the form starts from the account's default budget for new grants, which the person may change
    defaultBudget.apply(account.get()).onSuccess(prefill -> askWith(ctx, requestId, pending, prefill)).onFailure(ctx::fail);
  }

  /**
   * Answers with the consent page once the session is stored. Vert.x writes the session this
   * request read (unchanged, to renew its idle timeout) when the page goes out, without waiting;
   * left in flight, that copy can land after the decision and the next authorization have stored
   * theirs and undo them (the clustered store checks the version and writes in two steps), so the
   * next consent page finds its request gone.
   */
  private void askWith(RoutingContext ctx, String requestId, JsonObject pending, Optional<TokenBudget> prefill) {
    String page = ConsentPage.render(requestId, pending, Sessions.csrfToken(ctx).orElseThrow(), currency, prefill);
    sessions.store(ctx).onSuccess(v -> ctx.response().putHeader("Content-Type", "text/html; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        // form-action covers the redirect that answers the form: the client's redirect URI
        .putHeader("X-Frame-Options", "DENY").putHeader("Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' " + originOf(pending.getString("redirect_uri"))
                + "; frame-ancestors 'none'")
        .end(page)).onFailure(ctx::fail);
  }

  private void decide(RoutingContext ctx) {
    MultiMap form = ctx.request().formAttributes();
    String requestId = form.get("request");
    JsonObject pending = pending(ctx, requestId);
    String account = sessions.accountOf(ctx)
        .orElseThrow(() -> new Forbidden("Sign in first: the consent belongs to a signed-in person."));
    String sentOrigin = ctx.request().getHeader("Origin");
    String expected = Sessions.csrfToken(ctx).orElse("");
    String sent = form.get("csrf_token");
    if (sentOrigin == null || !sentOrigin.equals(origin) || sent == null
        || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8))) {
      throw new Forbidden("Cross-site consent refused: the form must come from this gateway's consent page.");
    }
    String redirect = pending.getString("redirect_uri");
    String state = pending.getString("state");
    if (!"allow".equals(form.get("decision"))) {
      ctx.session().remove(PENDING + requestId);
      redirectWithError(ctx, redirect, state, "access_denied", "the person denied the request");
      return;
    }
    List<String> asked = Arrays.asList(pending.getString("scope").split(" "));
    List<String> granted = form.getAll("scope").stream().filter(asked::contains).distinct().toList();
    if (granted.isEmpty()) {
      throw new Invalid("Tick at least one permission, or deny.");
    }
    Optional<TokenBudget> budget = budget(form);
    ctx.session().remove(PENDING + requestId);
    String code = Ids.randomBase62(43);
    OAuthClient client = new OAuthClient(pending.getString("client_id"), pending.getString("client_name"), List.of());
    repository.consent(new OAuthRepository.Consent(account, client, redirect, granted, pending.getString("resource"),
            pending.getString("code_challenge"), budget), code)
        .onSuccess(grant -> redirect(ctx, redirect + (redirect.contains("?") ? "&" : "?") + "code=" + code
            + (state == null ? "" : "&state=" + encode(state)) + "&iss=" + encode(issuer)))
        .onFailure(ctx::fail);
  }

  /** The budget the person set at consent; empty when every field was left empty. */
  private Optional<TokenBudget> budget(MultiMap form) {
    List<Invalid.FieldError> errors = new ArrayList<>();
    Long daily = money(form, "daily_cap", errors);
    Long monthly = money(form, "monthly_cap", errors);
    Long total = money(form, "total_cap", errors);
    Long price = money(form, "max_price_per_gpu_hour", errors);
    Long threshold = money(form, "approval_threshold", errors);
    Integer hours = null;
    String hoursText = blankToNull(form.get("max_hours"));
    if (hoursText != null) {
      if (!hoursText.matches("[1-9][0-9]{0,4}")) {
        errors.add(new Invalid.FieldError("max_hours", "a whole number of hours from 1"));
      } else {
        hours = Integer.valueOf(hoursText);
      }
    }
    if (!errors.isEmpty()) {
      throw new Invalid("Some budget fields are not amounts.", errors);
    }
    TokenBudget budget = new TokenBudget(currency, daily, monthly, total, price, hours, threshold);
    return daily == null && monthly == null && total == null && price == null && hours == null && threshold == null
        ? Optional.empty() : Optional.of(budget);
  }

  private Long money(MultiMap form, String field, List<Invalid.FieldError> errors) {
    String text = blankToNull(form.get(field));
    if (text == null) {
      return null;
    }
    int digits = java.util.Currency.getInstance(currency.toUpperCase(java.util.Locale.ROOT)).getDefaultFractionDigits();
    try {
      BigDecimal amount = new BigDecimal(text).movePointRight(Math.max(digits, 0));
      if (amount.signum() < 0 || amount.stripTrailingZeros().scale() > 0 || amount.compareTo(BigDecimal.valueOf(
          Long.MAX_VALUE / 2)) > 0 || (field.equals("max_price_per_gpu_hour") && amount.signum() == 0)) {
        throw new NumberFormatException();
      }
      return amount.longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      errors.add(new Invalid.FieldError(field, "an amount such as 25.50"));
      return null;
    }
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.trim();
  }

  private JsonObject pending(RoutingContext ctx, String requestId) {
    JsonObject pending = ctx.session() == null || requestId == null ? null : ctx.session().get(PENDING + requestId);
    if (pending == null || pending.getLong("at") + PENDING_LIFETIME.toMillis() < System.currentTimeMillis()) {
      throw new Invalid("This authorization request is unknown, expired or from another browser: "
          + "start again from your MCP client.");
    }
    return pending;
  }

  /** Keeps the request in the session, dropping expired ones and the oldest beyond a few. */
  private void keep(RoutingContext ctx, String requestId, JsonObject request) {
    List<String> keys = new ArrayList<>(ctx.session().data().keySet().stream().filter(k -> k.startsWith(PENDING))
        .toList());
    keys.sort((a, b) -> Long.compare(((JsonObject) ctx.session().get(a)).getLong("at"),
        ((JsonObject) ctx.session().get(b)).getLong("at")));
    while (keys.size() >= MAX_PENDING) {
      ctx.session().remove(keys.remove(0));
    }
    ctx.session().put(PENDING + requestId, request);
  }

  private void redirectWithError(RoutingContext ctx, String redirect, String state, String error, String description) {
    redirect(ctx, redirect + (redirect.contains("?") ? "&" : "?") + "error=" + error + "&error_description="
        + encode(description) + (state == null ? "" : "&state=" + encode(state)) + "&iss=" + encode(issuer));
  }

  /** Redirects once the session is stored: the browser's next request depends on it. */
  private void redirect(RoutingContext ctx, String location) {
    sessions.store(ctx).onSuccess(v -> ctx.response().setStatusCode(302).putHeader("Location", location)
        .putHeader("Cache-Control", "no-store").end()).onFailure(ctx::fail);
  }

  private static String originOf(String uri) {
    java.net.URI parsed = java.net.URI.create(uri);
    return parsed.getScheme() + "://" + parsed.getRawAuthority();
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
