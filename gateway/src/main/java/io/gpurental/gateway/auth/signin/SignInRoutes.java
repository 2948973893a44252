package io.gpurental.gateway.auth.signin;

import io.gpurental.gateway.auth.Csrf;
import io.gpurental.gateway.auth.Sessions;
import io.gpurental.gateway.config.RateLimitConfig;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.platform.ratelimit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The browser sign-in flow: {@code GET /auth/{provider}} starts it (state, PKCE verifier and
 * nonce kept in the session), {@code GET /auth/{provider}/callback} finishes it, and
 * {@code POST /auth/logout} ends the session. Failures land on {@code /signin?error=…}.
 */
public final class SignInRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(SignInRoutes.class);
  private static final Duration PENDING_LIFETIME = Duration.ofMinutes(10);
  private static final String PENDING_PREFIX = "signin.";

  private final Map<String, IdentityProvider> providers;
  private final Sessions sessions;
  private final AccountLinker linker;
  private final Csrf csrf;
  private final RateLimiter limiter;
  private final RateLimitConfig limits;
  private final String publicBase;

  public SignInRoutes(Map<String, IdentityProvider> providers, Sessions sessions, AccountLinker linker, Csrf csrf,
      RateLimiter limiter, RateLimitConfig limits, URI publicUrl) {
    this.providers = providers;
    this.sessions = sessions;
    this.linker = linker;
    this.csrf = csrf;
    this.limiter = limiter;
    this.limits = limits;
    this.publicBase = publicUrl.toString().replaceAll("/+$", "");
  }

  public void mount(Router router) {
    router.route("/auth/*").handler(sessions.handler());
    router.post("/auth/logout").handler(this::logout);
    router.get("/auth/:provider").handler(this::start);
    router.get("/auth/:provider/callback").handler(this::callback);
  }

  private void start(RoutingContext ctx) {
    IdentityProvider provider = provider(ctx);
    if (ctx.session() == null) {
      // the session handler skips requests with an Authorization header
      throw new Invalid("Sign-in happens in a browser session; send no Authorization header.");
    }
    IdentityProvider.AuthorizationRequest request = new IdentityProvider.AuthorizationRequest(
        Ids.randomBase62(32), Pkce.newVerifier(), Ids.randomBase62(32), redirectUri(provider));
    limiter.acquire("sign-in", clientIp(ctx), limits.signInsPerMinute(), Duration.ofMinutes(1), "sign-in attempts")
        .compose(v -> provider.authorizeUrl(request))
        .onSuccess(url -> {
          ctx.session().put(PENDING_PREFIX + provider.name(), new JsonObject()
              .put("state", request.state())
              .put("verifier", request.codeVerifier())
              .put("nonce", request.nonce())
              .put("return_to", safeReturnTo(ctx.request().getParam("return_to")))
              .put("started_at", System.currentTimeMillis()));
          redirect(ctx, url);
        })
        .onFailure(ctx::fail);
  }

  private void callback(RoutingContext ctx) {
    IdentityProvider provider = provider(ctx);
    JsonObject pending = ctx.session() == null ? null : ctx.session().remove(PENDING_PREFIX + provider.name());
    String state = ctx.request().getParam("state");
    if (pending == null || state == null || !state.equals(pending.getString("state"))
        || pending.getLong("started_at") + PENDING_LIFETIME.toMillis() < System.currentTimeMillis()) {
      failSignIn(ctx, "state_mismatch", Map.of("provider", provider.name()));
      return;
    }
    String error = ctx.request().getParam("error");
    String code = ctx.request().getParam("code");
    if (error != null || code == null) {
      failSignIn(ctx, "access_denied".equals(error) ? "access_denied" : "provider_error", Map.of("provider", provider.name()));
      return;
    }
    IdentityProvider.AuthorizationRequest request = new IdentityProvider.AuthorizationRequest(
        state, pending.getString("verifier"), pending.getString("nonce"), redirectUri(provider));
    Optional<String> signedIn = sessions.accountOf(ctx);
    provider.identify(code, request)
        .recover(failure -> {
          LOG.warn("{} sign-in refused: {}", provider.name(), failure.getMessage());
          return Future.failedFuture(new ProviderRefused());
        })
        .compose(identity -> linker.signIn(identity, signedIn))
        .onSuccess(outcome -> finish(ctx, provider, outcome, pending.getString("return_to")))
        .onFailure(failure -> {
          if (failure instanceof ProviderRefused) {
            failSignIn(ctx, "provider_error", Map.of("provider", provider.name()));
          } else {
            ctx.fail(failure);
          }
        });
  }

  private void finish(RoutingContext ctx, IdentityProvider provider, SignInOutcome outcome, String returnTo) {
    if (outcome instanceof SignInOutcome.SignedIn signedIn) {
      sessions.signIn(ctx, signedIn.accountId(), Ids.randomBase62(43));
      redirect(ctx, returnTo);
    } else if (outcome instanceof SignInOutcome.Linked linked) {
      sessions.signIn(ctx, linked.accountId(), Ids.randomBase62(43));
      redirect(ctx, returnTo);
    } else if (outcome instanceof SignInOutcome.EmailInUse inUse) {
      failSignIn(ctx, "email_in_use", Map.of("provider", provider.name(), "email", inUse.email(),
          "existing", inUse.existingProvider()));
    } else if (outcome instanceof SignInOutcome.Suspended suspended) {
      failSignIn(ctx, "account_suspended", Map.of("provider", provider.name(), "reason", suspended.reason()));
    } else if (outcome instanceof SignInOutcome.ProviderAlreadyLinked) {
      failSignIn(ctx, "provider_already_linked", Map.of("provider", provider.name()));
    } else {
      failSignIn(ctx, "identity_in_use", Map.of("provider", provider.name()));
    }
  }

  private void logout(RoutingContext ctx) {
    if (sessions.accountOf(ctx).isPresent()) {
      csrf.check(ctx);
    }
    // end() deletes the session from the store before it completes: no flush to wait for
    sessions.end(ctx).onSuccess(v -> ctx.response().setStatusCode(204).end()).onFailure(ctx::fail);
  }

  private IdentityProvider provider(RoutingContext ctx) {
    IdentityProvider provider = providers.get(ctx.pathParam("provider"));
    if (provider == null) {
      throw new NotFound("No sign-in provider '" + ctx.pathParam("provider") + "'; this gateway offers "
          + String.join(", ", providers.keySet()) + ".");
    }
    return provider;
  }

  private String redirectUri(IdentityProvider provider) {
    return publicBase + "/auth/" + provider.name() + "/callback";
  }

  private void failSignIn(RoutingContext ctx, String error, Map<String, String> details) {
    StringBuilder url = new StringBuilder("/signin?error=").append(error);
    details.forEach((key, value) -> url.append('&').append(key).append('=')
        .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
    redirect(ctx, url.toString());
  }

  /** Redirects once the session is stored: the browser's next request depends on it. */
  private void redirect(RoutingContext ctx, String location) {
    sessions.store(ctx)
        .onSuccess(v -> ctx.response().setStatusCode(302).putHeader("Location", location)
            .putHeader("Cache-Control", "no-store").end())
        .onFailure(ctx::fail);
  }

  /** Only a path on this site: no scheme, no host, no protocol-relative {@code //}. */
  static String safeReturnTo(String returnTo) {
    if (returnTo == null || !returnTo.startsWith("/") || returnTo.startsWith("//") || returnTo.contains("\\")
        || returnTo.length() > 500 || returnTo.chars().anyMatch(Character::isISOControl)) {
      return "/";
    }
    return returnTo;
  }

  private static String clientIp(RoutingContext ctx) {
    return ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().hostAddress();
  }

  /** The provider refused the code or returned something unacceptable: not our failure. */
  private static final class ProviderRefused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProviderRefused() {
      super(null, null, false, false);
    }
  }
}
