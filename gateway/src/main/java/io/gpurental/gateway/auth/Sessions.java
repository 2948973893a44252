package io.gpurental.gateway.auth;

import io.gpurental.gateway.config.AuthConfig;
import io.gpurental.gateway.config.HttpConfig;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.Session;
import io.vertx.ext.web.handler.SessionHandler;
import io.vertx.ext.web.sstore.ClusteredSessionStore;
import io.vertx.ext.web.sstore.SessionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Browser sessions, kept in the cluster (Hazelcast) so any node serves them and they outlive the
 * node that made them. Cookie: {@code __Host-gpr_session} over TLS (Secure), else
 * {@code gpr_session}; HttpOnly; SameSite=Lax. Sessions end after the idle timeout (enforced by
 * the store's TTL) or the absolute timeout since sign-in (enforced here).
 */
public final class Sessions {
  public static final String PLAIN_COOKIE = "gpr_session";
  public static final String TLS_COOKIE = "__Host-gpr_session";
  /** Readable by the web UI, so it knows whether to ask for /me; it grants nothing. */
  public static final String SIGNED_IN_HINT = "gpr_signed_in";
  static final String ACCOUNT = "account_id";
  static final String SIGNED_IN_AT = "signed_in_at";
  static final String CSRF = "csrf_token";

  private final Vertx vertx;
  private final SessionStore store;
  private final SessionHandler handler;
  private final Duration absoluteTimeout;
  private final boolean secure;
  private final String cookieName;

  public Sessions(Vertx vertx, HttpConfig http, AuthConfig auth) {
    this(vertx, ClusteredSessionStore.create(vertx), http.behindTls(), auth.sessionIdleTimeout(),
        auth.sessionAbsoluteTimeout());
  }

  /** Sessions in {@code store} (tests give a store of their own). */
  public Sessions(Vertx vertx, SessionStore store, boolean secure, Duration idleTimeout, Duration absoluteTimeout) {
    this.vertx = vertx;
    this.store = store;
    this.secure = secure;
    this.absoluteTimeout = absoluteTimeout;
    this.cookieName = secure ? TLS_COOKIE : PLAIN_COOKIE;
    // lazy: vertx-web stores a session (and sets its cookie) only if a handler called
    // ctx.session(); the API handler below makes sure nothing does without a reason
    this.handler = SessionHandler.create(store)
        .setSessionCookieName(cookieName)
        .setSessionCookiePath("/")
        .setCookieHttpOnlyFlag(true)
        .setCookieSecureFlag(secure)
        .setCookieSameSite(CookieSameSite.LAX)
        .setSessionTimeout(idleTimeout.toMillis())
        .setMinLength(32)
        .setNagHttps(false)
        .setLazySession(true);
  }

  /**
   * The sign-in routes' handler: loads the session or starts one (sign-in needs it for its state),
   * except for bearer-token requests, which never use cookies.
   */
  public Handler<RoutingContext> handler() {
    return ctx -> {
      if (ctx.request().getHeader("Authorization") != null) {
        ctx.next();
      } else {
        handler.handle(ctx);
      }
    };
  }

  /**
   * The API's handler: loads the session of a request that carries a session cookie and nothing
   * else. Anonymous and token requests get no session, so no store write and no Set-Cookie: only
   * sign-in makes sessions (an anonymous flood must not fill the cluster's memory).
   */
  public Handler<RoutingContext> apiHandler() {
    return ctx -> {
      if (ctx.request().getHeader("Authorization") != null || ctx.request().getCookie(cookieName) == null) {
        ctx.next();
      } else {
        handler.handle(ctx);
      }
    };
  }

  /**
   * The signed-in account of this session. Past the absolute timeout the sign-in is forgotten
   * (the session itself stays usable, e.g. for the sign-in that follows).
   */
  public Optional<String> accountOf(RoutingContext ctx) {
    Session session = ctx.session();
    if (session == null || session.get(ACCOUNT) == null) {
      return Optional.empty();
    }
    if (pastAbsoluteTimeout(session)) {
      session.remove(ACCOUNT);
      session.remove(SIGNED_IN_AT);
      session.remove(CSRF);
      return Optional.empty();
    }
    return Optional.of(session.get(ACCOUNT));
  }

  /**
   * The API's view of {@link #accountOf}: a cookie whose session is gone (expired, ended, or never
   * issued) made the handler start a new, empty session; it is dropped with its cookie instead of
   * stored, so made-up cookies cannot fill the store either.
   */
  public Optional<String> apiAccountOf(RoutingContext ctx) {
    Session session = ctx.session();
    if (session != null && session.isEmpty()) {
      session.destroy();
      return Optional.empty();
    }
    return accountOf(ctx);
  }

  /** Whether the stored session of this id is still signed in as this account. */
  Future<Boolean> signedIn(String sessionId, String accountId) {
    return store.get(sessionId).map(session -> session != null && accountId.equals(session.get(ACCOUNT))
        && !pastAbsoluteTimeout(session));
  }

  private boolean pastAbsoluteTimeout(Session session) {
    Long signedInAt = session.get(SIGNED_IN_AT);
    return signedInAt == null || Instant.ofEpochMilli(signedInAt).plus(absoluteTimeout).isBefore(Instant.now());
  }

  public static Optional<String> csrfToken(RoutingContext ctx) {
    return Optional.ofNullable(ctx.session()).map(session -> session.get(CSRF));
  }

  /**
   * Stores the session now; completes once the store has it. Vert.x stores a changed session
   * when the response headers are written, without waiting for the store: a browser that follows
   * a redirect at once can arrive before the write and read the session's previous version (a
   * sign-in's state missing: state_mismatch). A write still in flight can also land after the
   * browser's next requests stored theirs and undo them, even when it only renews the session:
   * the clustered store checks the version and writes in two steps. Responses the browser answers
   * with a request that uses the session (sign-in redirects, the OAuth consent page) wait for this
   * first; logout deletes the session outright.
   */
  public Future<Void> store(RoutingContext ctx) {
    return ctx.session() == null ? Future.succeededFuture() : handler.flush(ctx, true);
  }

  /** Marks the session signed in under a fresh id (no fixation) with a new CSRF token. */
  public void signIn(RoutingContext ctx, String accountId, String csrfToken) {
    Session session = ctx.session().regenerateId();
    session.put(ACCOUNT, accountId);
    session.put(SIGNED_IN_AT, System.currentTimeMillis());
    session.put(CSRF, csrfToken);
    ctx.response().addCookie(Cookie.cookie(SIGNED_IN_HINT, "1").setPath("/").setSecure(secure)
        .setSameSite(CookieSameSite.LAX));
  }

  /**
   * Ends the session everywhere and clears the hint. The clustered store drops it before this
   * completes (not only once the response goes out), so the announcement that follows finds it gone.
   */
  public Future<Void> end(RoutingContext ctx) {
    ctx.response().addCookie(Cookie.cookie(SIGNED_IN_HINT, "").setPath("/").setMaxAge(0)
        .setSecure(secure).setSameSite(CookieSameSite.LAX));
    Session session = ctx.session();
    if (session == null) {
      return Future.succeededFuture();
    }
    String id = session.id();
    String account = session.get(ACCOUNT);
    session.destroy();
    return store.delete(id).onSuccess(v -> {
      if (account != null) {
        CredentialEvents.changed(vertx, account);
      }
    });
  }
}
