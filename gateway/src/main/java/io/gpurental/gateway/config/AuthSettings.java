package io.gpurental.gateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Maps the {@code auth.*} settings. In sandbox mode a provider without a client id points at the
 * gateway's own sandbox provider; in production it is disabled, and at least one must be set.
 */
final class AuthSettings {
  static final String SANDBOX_GITHUB_CLIENT = "sandbox-github-client";
  static final String SANDBOX_GOOGLE_CLIENT = "sandbox-google-client.apps.sandbox";
  /** Not a secret: the sandbox providers accept only these and exist only in sandbox mode. */
  static final String SANDBOX_CLIENT_SECRET = "sandbox-client-secret";
  static final String SANDBOX_OPERATOR_LOGIN = "operator";

  private AuthSettings() {}

  static AuthConfig auth(Settings s, Mode mode, URI publicUrl) {
    boolean sandbox = mode == Mode.SANDBOX;
    String base = publicUrl.toString().replaceAll("/+$", "");
    Optional<AuthConfig.Provider> github = provider(s, "github", sandbox,
        URI.create(base + "/sandbox/github"), URI.create(base + "/sandbox/github/api"), SANDBOX_GITHUB_CLIENT);
    Optional<AuthConfig.Provider> google = provider(s, "google", sandbox,
        URI.create(base + "/sandbox/google"), URI.create(base + "/sandbox/google"), SANDBOX_GOOGLE_CLIENT);
    if (github.isEmpty() && google.isEmpty()) {
      throw new ConfigException("auth.github.client_id", "production mode needs GitHub or Google sign-in: set "
          + ConfigLoader.environmentVariable("auth.github.client_id") + " or "
          + ConfigLoader.environmentVariable("auth.google.client_id"));
    }
    List<String> operatorLogins = new ArrayList<>(s.list("auth.operators.github_logins"));
    if (sandbox && github.map(AuthConfig.Provider::sandbox).orElse(false)) {
      operatorLogins.add(SANDBOX_OPERATOR_LOGIN);
    }
    return new AuthConfig(
        Duration.ofMinutes(s.intBetween("auth.session.idle_timeout_minutes", 1, 60 * 24 * 30)),
        Duration.ofHours(s.intBetween("auth.session.absolute_timeout_hours", 1, 24 * 90)),
        List.copyOf(operatorLogins),
        s.list("auth.operators.emails"),
        github,
        google,
        new AuthConfig.OAuthServer(
            Duration.ofMinutes(s.intBetween("auth.oauth.access_token_minutes", 1, 24 * 60)), sandbox));
  }

  private static Optional<AuthConfig.Provider> provider(Settings s, String name, boolean sandbox,
      URI sandboxSite, URI sandboxApi, String sandboxClient) {
    String prefix = "auth." + name + ".";
    String clientId = s.string(prefix + "client_id");
    if (clientId.isEmpty()) {
      return sandbox
          ? Optional.of(new AuthConfig.Provider(sandboxClient, SANDBOX_CLIENT_SECRET, sandboxSite, sandboxApi, true))
          : Optional.empty();
    }
    String secret = s.nonBlank(prefix + "client_secret");
    URI site = s.url(prefix + (name.equals("github") ? "site" : "issuer"), "https", "http");
    URI api = name.equals("github") ? s.url(prefix + "api_url", "https", "http") : site;
    return Optional.of(new AuthConfig.Provider(clientId, secret, site, api, false));
  }
}
