package io.gpurental.gateway.auth.oauth;

import java.net.URI;
import java.util.List;
import java.util.Locale;

/** An MCP client as the authorization server knows it: its id, the name shown at consent, its redirect URIs. */
record OAuthClient(String id, String name, List<String> redirectUris) {

  /**
   * Redirect URIs a client may register: HTTPS, or plain HTTP to a loopback address (native apps,
   * RFC 8252); no fragment.
   */
  static boolean acceptableRedirect(String uri) {
    try {
      URI parsed = new URI(uri);
      if (parsed.getFragment() != null || parsed.getHost() == null || !parsed.isAbsolute()) {
        return false;
      }
      String scheme = parsed.getScheme().toLowerCase(Locale.ROOT);
      return scheme.equals("https") || (scheme.equals("http") && isLoopback(parsed.getHost()));
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }

  static boolean isLoopback(String host) {
    return host.equals("127.0.0.1") || host.equals("[::1]") || host.equalsIgnoreCase("localhost");
  }

  /** Exact match, as OAuth 2.1 requires, except the port of a loopback redirect (RFC 8252 §7.3). */
  boolean allowsRedirect(String uri) {
    if (redirectUris.contains(uri)) {
      return true;
    }
    try {
      URI asked = new URI(uri);
      return asked.getHost() != null && isLoopback(asked.getHost()) && "http".equals(asked.getScheme())
          && redirectUris.stream().map(URI::create).anyMatch(registered -> "http".equals(registered.getScheme())
              && asked.getHost().equals(registered.getHost())
              && java.util.Objects.equals(asked.getRawPath(), registered.getRawPath()));
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }
}
