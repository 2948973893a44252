package io.gpurental.gateway.config;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Maps {@code alerts.*}. */
final class AlertsSettings {
  /** The rules' names, as in {@code alerts.rules.<name>} (each true or false). */
  static final List<String> RULES = List.of("host_offline", "gpu_unhealthy", "provisioning_failed",
      "ready_deadline_missed", "refund_failed", "ledger_problem", "reconciliation_failing");

  private AlertsSettings() {}

  static AlertsConfig alerts(Settings s) {
    Set<String> enabled = new LinkedHashSet<>();
    RULES.forEach(rule -> {
      if (s.bool("alerts.rules." + rule)) {
        enabled.add(rule);
      }
    });
    return new AlertsConfig(
        Duration.ofMillis(s.intBetween("alerts.evaluate_interval_ms", 100, 3_600_000)),
        Set.copyOf(enabled),
        s.intBetween("alerts.reconciliation_failures", 1, 1000),
        Duration.ofHours(s.intBetween("alerts.recent_failure_hours", 1, 24 * 30)),
        delivery(s), webhook(s), email(s));
  }

  private static AlertsConfig.Delivery delivery(Settings s) {
    Duration initial = Duration.ofMillis(s.intBetween("alerts.delivery.initial_backoff_ms", 10, 3_600_000));
    Duration max = Duration.ofMillis(s.intBetween("alerts.delivery.max_backoff_ms", 10, 86_400_000));
    if (max.compareTo(initial) < 0) {
      throw new ConfigException("alerts.delivery.max_backoff_ms", "must not be below alerts.delivery.initial_backoff_ms");
    }
    return new AlertsConfig.Delivery(
        Duration.ofMillis(s.intBetween("alerts.delivery.interval_ms", 50, 3_600_000)),
        s.intBetween("alerts.delivery.max_attempts", 1, 100), initial, max,
        Duration.ofMillis(s.intBetween("alerts.delivery.timeout_ms", 100, 120_000)));
  }

  private static Optional<AlertsConfig.Webhook> webhook(Settings s) {
    if (s.string("alerts.webhook.url").isEmpty()) {
      return Optional.empty();
    }
    String secret = s.string("alerts.webhook.secret");
    if (secret.length() < 16) {
      throw new ConfigException("alerts.webhook.secret", "must be at least 16 characters when alerts.webhook.url"
          + " is set; set " + ConfigLoader.environmentVariable("alerts.webhook.secret"));
    }
    return Optional.of(new AlertsConfig.Webhook(s.url("alerts.webhook.url", "http", "https"), secret));
  }

  private static Optional<AlertsConfig.Email> email(Settings s) {
    List<String> to = s.list("alerts.email.to");
    if (to.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new AlertsConfig.Email(s.nonBlank("alerts.email.smtp_host"), s.port("alerts.email.smtp_port"),
        s.oneOf("alerts.email.starttls", AlertsConfig.StartTls.class), s.string("alerts.email.username"),
        s.string("alerts.email.password"), s.nonBlank("alerts.email.from"), to));
  }
}
