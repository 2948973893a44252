package io.gpurental.gateway.auth;

import io.gpurental.gateway.platform.errors.Forbidden;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Cookie-authenticated state changes need the session's CSRF token in {@code X-CSRF-Token} and an
 * {@code Origin} equal to the gateway's public origin. Bearer requests carry no ambient
 * credentials and are exempt.
 */
public final class Csrf {
  public static final String HEADER = "X-CSRF-Token";
  private final String origin;

  public Csrf(URI publicUrl) {
    this.origin = origin(publicUrl);
  }

  /** The origin as browsers serialise it: lower-case scheme and host, default port omitted. */
  static String origin(URI url) {
    String scheme = url.getScheme().toLowerCase(java.util.Locale.ROOT);
    int port = url.getPort();
    boolean defaultPort = port == -1 || (scheme.equals("https") && port == 443) || (scheme.equals("http") && port == 80);
    return scheme + "://" + url.getHost().toLowerCase(java.util.Locale.ROOT) + (defaultPort ? "" : ":" + port);
  }

  public static boolean changesState(HttpMethod method) {
    return !(method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS);
  }

  /** Fails with 403 unless the request proves it comes from this site's own pages. */
  public void check(RoutingContext ctx) {
    checkForm(ctx, ctx.request().getHeader(HEADER));
  }

  /** As {@link #check}, for an HTML form that sends the session's token as the field {@code sent}. */
  public void checkForm(RoutingContext ctx, String sent) {
    String requestOrigin = ctx.request().getHeader("Origin");
    if (requestOrigin == null || !requestOrigin.equals(origin)) {
      throw new Forbidden("Cross-site request refused: the Origin header must be " + origin + ".");
    }
    Optional<String> expected = Sessions.csrfToken(ctx);
    if (expected.isEmpty() || sent == null || !MessageDigest.isEqual(
        expected.get().getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8))) {
      throw new Forbidden("Missing or wrong " + HEADER + " header: send the csrf_token from GET /api/v1/me.");
    }
  }
}
