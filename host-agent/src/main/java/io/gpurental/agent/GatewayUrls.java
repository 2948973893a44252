package io.gpurental.agent;

import java.net.URI;
import java.util.Set;

/** Which gateway URLs the agent may use: https anywhere, plain http only to this machine. */
final class GatewayUrls {
  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "[::1]", "::1");

  private GatewayUrls() {
  }

  static boolean safe(String url) {
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      return false;
    }
    String host = uri.getHost();
    if ("https".equalsIgnoreCase(uri.getScheme())) {
      return host != null;
    }
    return "http".equalsIgnoreCase(uri.getScheme()) && host != null
        && (LOOPBACK_NAMES.contains(host.toLowerCase(java.util.Locale.ROOT)) || host.matches("127(\\.\\d{1,3}){3}"));
  }
}
