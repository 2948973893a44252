package io.gpurental.gateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Sign-in: sessions, who is an operator, and the identity providers (absent = disabled). */
public record AuthConfig(
    Duration sessionIdleTimeout,
    Duration sessionAbsoluteTimeout,
    List<String> operatorGithubLogins,
    List<String> operatorEmails,
    Optional<Provider> github,
    Optional<Provider> google,
    OAuthServer oauth) {

  /**
   * The gateway as OAuth authorization server for MCP clients: how long access tokens live, and
   * whether client metadata documents may be fetched over plain HTTP from loopback addresses
   * (sandbox mode only: tests serve them locally; production fetches HTTPS only).
   */
  public record OAuthServer(Duration accessTokenLifetime, boolean loopbackClientIds) {}

  /**
   * One OAuth client. For GitHub {@code site} is the web site and {@code apiUrl} the REST API; for
   * Google {@code site} is the OpenID Connect issuer and {@code apiUrl} is unused.
   */
  public record Provider(String clientId, String clientSecret, URI site, URI apiUrl, boolean sandbox) {}
}
