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
    Optional<Provider> google) {

  /**
   * One OAuth client. For GitHub {@code site} is the web site and {@code apiUrl} the REST API; for
   * Google {@code site} is the OpenID Connect issuer and {@code apiUrl} is unused.
   */
  public record Provider(String clientId, String clientSecret, URI site, URI apiUrl, boolean sandbox) {}
}
