package io.gpurental.gateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Alerts: which rules run and how often, and where their incidents are sent (a signed webhook,
 * e-mail), with the retry policy both channels share.
 */
public record AlertsConfig(Duration evaluateInterval, Set<String> enabledRules, int reconciliationFailures,
    Duration recentFailures, Delivery delivery, Optional<Webhook> webhook, Optional<Email> email) {

  /** How notifications are retried: exponential backoff from {@code initialBackoff}, capped, bounded. */
  public record Delivery(Duration interval, int maxAttempts, Duration initialBackoff, Duration maxBackoff,
      Duration timeout) {}

  /** A webhook endpoint and the secret its requests are signed with. */
  public record Webhook(URI url, String secret) {}

  /** STARTTLS use when talking to the SMTP server. */
  public enum StartTls { DISABLED, OPTIONAL, REQUIRED }

  /** An SMTP server and the addresses alerts are sent from and to. */
  public record Email(String smtpHost, int smtpPort, StartTls startTls, String username, String password,
      String from, List<String> to) {}

  public boolean enabled(String rule) {
    return enabledRules.contains(rule);
  }
}
