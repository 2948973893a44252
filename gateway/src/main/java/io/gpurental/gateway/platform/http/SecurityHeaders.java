package io.gpurental.gateway.platform.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * Security headers on every response, errors included. The CSP fits the bundled web UI: scripts
 * and connections only from this origin, no framing; inline styles are allowed because the API
 * docs renderer sets style attributes.
 */
public final class SecurityHeaders implements Handler<RoutingContext> {
  static final String CONTENT_SECURITY_POLICY = String.join("; ",
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'");
  private final boolean behindTls;

  public SecurityHeaders(boolean behindTls) {
    this.behindTls = behindTls;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerResponse response = ctx.response();
    response.putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "strict-origin-when-cross-origin")
        .putHeader("X-Frame-Options", "DENY")
        .putHeader("Cross-Origin-Opener-Policy", "same-origin")
        .putHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (behindTls) {
      response.putHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    }
    ctx.next();
  }
}
