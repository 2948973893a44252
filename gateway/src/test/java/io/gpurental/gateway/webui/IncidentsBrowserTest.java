package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.BrowserTestBase;
import io.gpurental.gateway.testing.GatewayTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The operator's Incidents page in Chromium: open incidents first, a link to the host, each channel's delivery. */
// the incidents are seeded below; no evaluation runs during the test to resolve them
@GatewayTest(settings = {"GATEWAY_ALERTS_EVALUATE_INTERVAL_MS=3600000"})
class IncidentsBrowserTest extends BrowserTestBase {
  @Test
  void openIncidentsComeFirstWithTheirHostAndDeliveryStatus() throws Exception {
    String host = node.sql("SELECT id FROM hosts ORDER BY id LIMIT 1").iterator().next().getString(0);
    node.sql("INSERT INTO alert_incidents (id, rule, target, status, opened_at, resolved_at, details) VALUES"
        + " ('inc_browserResolved1', 'host_offline', '" + host + "', 'resolved', now() - interval '2 hours',"
        + "  now() - interval '90 minutes', '{\"host_id\": \"" + host + "\"}'),"
        + " ('inc_browserLedger001', 'ledger_problem', 'unbalanced_transaction:charge:pi_123', 'resolved',"
        + "  now() - interval '3 hours', now() - interval '170 minutes', '{}'),"
        + " ('inc_browserOpen00001', 'host_offline', '" + host + "', 'open', now() - interval '5 minutes', NULL,"
        + "  '{\"host_id\": \"" + host + "\"}')");
    node.sql("INSERT INTO alert_deliveries (incident_id, transition, channel, status, attempts, last_status_code,"
        + " last_error, delivered_at, next_attempt_at) VALUES"
        + " ('inc_browserOpen00001', 'opened', 'webhook', 'pending', 2, 500, 'HTTP 500', NULL,"
        + "  now() + interval '1 hour'),"
        + " ('inc_browserOpen00001', 'opened', 'email', 'delivered', 1, NULL, NULL, now(), now()),"
        + " ('inc_browserResolved1', 'opened', 'webhook', 'delivered', 3, 204, NULL, now(), now()),"
        + " ('inc_browserResolved1', 'resolved', 'webhook', 'delivered', 1, 204, NULL, now(), now()),"
        + " ('inc_browserResolved1', 'opened', 'email', 'failed', 8, NULL, 'connection refused', NULL, now()),"
        + " ('inc_browserResolved1', 'resolved', 'email', 'delivered', 1, NULL, NULL, now(), now())");

    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/operator/incidents"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("operator-signin"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='operator']"))).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/operator/incidents")));

    List<WebElement> rows = wait.until(ExpectedConditions.numberOfElementsToBeMoreThan(
        By.cssSelector("#incidents-table tbody tr"), 2));
    assertEquals("incident-inc_browserOpen00001", rows.get(0).getAttribute("id"), "open first");
    WebElement open = rows.get(0);
    assertTrue(open.getText().contains("Host offline"), open.getText());
    assertTrue(open.getText().contains("opened: retrying after 2 attempts (HTTP 500)"), open.getText());
    assertTrue(open.getText().contains("opened: delivered"), open.getText());
    assertEquals(node.url("/operator/hosts/" + host),
        open.findElement(By.cssSelector("a[href='/operator/hosts/" + host + "']")).getAttribute("href"));
    WebElement resolved = browser.driver().findElement(By.id("incident-inc_browserResolved1"));
    assertTrue(resolved.getText().contains("opened: failed after 8 attempts (connection refused)"), resolved.getText());
    screenshot("incidents.png");

    new org.openqa.selenium.support.ui.Select(browser.driver().findElement(By.id("incident-status")))
        .selectByValue("open");
    wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#incidents-table tbody tr"), 1));
    assertEquals(List.of(), browser.consoleErrors());
  }

  /** Kept under target/ to look at (the page as Chromium rendered it). */
  private static void screenshot(String name) throws Exception {
    Path file = Path.of("target", "screenshots", name);
    Files.createDirectories(file.getParent());
    Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
