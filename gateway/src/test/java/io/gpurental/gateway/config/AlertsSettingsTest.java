package io.gpurental.gateway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code alerts.*}: every rule on, no channel until configured, and a webhook never unsigned. */
class AlertsSettingsTest {
  @Test
  void byDefaultEveryRuleRunsAndNothingIsSent() {
    AlertsConfig alerts = ConfigLoader.load(List.of(), Map.of()).alerts();
    assertEquals(AlertsSettings.RULES.size(), alerts.enabledRules().size());
    assertTrue(alerts.webhook().isEmpty());
    assertTrue(alerts.email().isEmpty(), "no recipient, no e-mail");
    assertEquals(Duration.ofSeconds(10), alerts.delivery().initialBackoff());
    assertEquals(8, alerts.delivery().maxAttempts());
  }

  @Test
  void eachRuleTurnsOffAlone() {
    AlertsConfig alerts = ConfigLoader.load(List.of(), Map.of("GATEWAY_ALERTS_RULES_LEDGER_PROBLEM", "false")).alerts();
    assertFalse(alerts.enabled("ledger_problem"));
    assertTrue(alerts.enabled("host_offline"));
  }

  @Test
  void aWebhookNeedsASecretAndRecipientsAreAList() {
    ConfigException unsigned = assertThrows(ConfigException.class, () -> ConfigLoader.load(List.of(),
        Map.of("GATEWAY_ALERTS_WEBHOOK_URL", "https://ops.example/alerts")));
    assertTrue(unsigned.getMessage().startsWith("alerts.webhook.secret:"), unsigned.getMessage());

    AlertsConfig alerts = ConfigLoader.load(List.of(), Map.of(
        "GATEWAY_ALERTS_WEBHOOK_URL", "https://ops.example/alerts",
        "GATEWAY_ALERTS_WEBHOOK_SECRET", "a-long-enough-secret",
        "GATEWAY_ALERTS_EMAIL_TO", "ops@example.test, oncall@example.test",
        "GATEWAY_ALERTS_EMAIL_STARTTLS", "required")).alerts();
    assertEquals(URI.create("https://ops.example/alerts"), alerts.webhook().orElseThrow().url());
    assertEquals(List.of("ops@example.test", "oncall@example.test"), alerts.email().orElseThrow().to());
    assertEquals(AlertsConfig.StartTls.REQUIRED, alerts.email().orElseThrow().startTls());
  }

  @Test
  void theBackoffCannotShrink() {
    ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(List.of(), Map.of(
        "GATEWAY_ALERTS_DELIVERY_INITIAL_BACKOFF_MS", "5000", "GATEWAY_ALERTS_DELIVERY_MAX_BACKOFF_MS", "1000")));
    assertTrue(e.getMessage().startsWith("alerts.delivery.max_backoff_ms:"), e.getMessage());
  }
}
