package io.gpurental.gateway.webui;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.operator.alerts.AlertsFeature;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.BrowserTestBase;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator's host page in Chromium: GPU health and the latest reading on the hosts list, and
 * on the host page charts (chart.js on a canvas, with a summary and a data table) over a chosen
 * range, from raw samples for hours and from hourly roll-ups for days.
 */
// the agent heartbeats only while the host is set up: offline later, it would open a second incident
@GatewayTest(settings = "GATEWAY_FLEET_OFFLINE_AFTER_MISSED=1000")
class HostTelemetryBrowserTest extends BrowserTestBase {
  /** Draws pixels: the canvas has points and chart.js painted something on it. */
  private static final String PAINTED = """
      const c = document.querySelector(arguments[0] + ' canvas');
      if (!c || c.width === 0 || Number(c.dataset.points) === 0) return 0;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let painted = 0;
      for (let i = 3; i < d.length; i += 4) { if (d[i] > 0) painted++; }
      return painted;""";

  @Test
  void theHostPageChartsTemperaturePowerAndUtilizationOverTheChosenRange() throws Exception {
    ApiClient operator = ApiClient.signIn(node, "operator");
    FakeAgent agent = hostWithHistory(operator);
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/operator/hosts"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("operator-signin"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='operator']"))).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/operator/hosts")));
    WebElement row = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("host-" + agent.hostId())));
    assertTrue(row.getText().contains("GPU 1: degraded"), row.getText());
    assertTrue(row.getText().contains("(measured)"), row.getText());
    // time-to-ready of 30, 40 and 200 s: p50 40 s, p95 184 s (3 min); the hot GPU's open incident
    assertEquals("40 sec / 3 min", row.findElement(By.cssSelector(".host-ready")).getText());
    WebElement incidents = row.findElement(By.id("incidents-" + agent.hostId()));
    assertEquals("1 open", incidents.getText());
    assertTrue(incidents.getAttribute("href").endsWith("/operator/incidents"), incidents.getAttribute("href"));
    browser.driver().executeScript("arguments[0].scrollIntoView()", row);
    screenshot("hosts-health.png");

    row.findElement(By.id("open-" + agent.hostId())).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/operator/hosts/" + agent.hostId())));
    WebElement gpu = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#gpu-1[data-health='degraded']")));
    assertTrue(gpu.getText().contains("above the limit of 85 °C"), gpu.getText());
    for (String chart : List.of("#chart-temperature", "#chart-power", "#chart-utilization")) {
      eventually(chart + " painted", Duration.ofSeconds(20), () -> painted(chart), painted -> painted > 500);
    }
    assertTrue(text("#chart-temperature-summary").contains("GPU 1: lowest"), text("#chart-temperature-summary"));
    assertTrue(text("#series-resolution").contains("heartbeat samples"));
    screenshot("host-page.png");
    browser.driver().executeScript("document.getElementById('charts-heading').scrollIntoView()");
    screenshot("host-page-6h.png");

    browser.driver().findElement(By.id("range-7d")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("series-resolution"), "hourly roll-ups"));
    eventually("temperature painted from roll-ups", Duration.ofSeconds(20), () -> painted("#chart-temperature"),
        painted -> painted > 500);
    assertTrue(browser.driver().findElements(By.cssSelector("#chart-temperature-table tbody tr")).size() >= 20);
    browser.driver().executeScript("document.getElementById('charts-heading').scrollIntoView()");
    screenshot("host-page-7d.png");
    assertEquals(List.of(), browser.consoleErrors());
  }

  /** An active host with 2 GPUs: 3 hours of samples, 2 days of roll-ups, and a hot GPU 1 now. */
  private static FakeAgent hostWithHistory(ApiClient operator) {
    HttpResponse<String> site = operator.post("/api/v1/operator/sites", new JsonObject()
        .put("name", "Site " + UUID.randomUUID()).put("region", "eu-test").put("country", "de"));
    HttpResponse<String> host = operator.post("/api/v1/operator/hosts", new JsonObject().put("name", "fra-l40s-07")
        .put("site_id", new JsonObject(site.body()).getString("id")));
    FakeAgent agent = FakeAgent.enrol(node, new JsonObject(host.body()).getString("enrollment_token"),
        "NVIDIA H100 80GB HBM3", 2);
    assertEquals(200, operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/activate", new JsonObject()
        .put("price_per_gpu_hour", new JsonObject().put("amount", 250).put("currency", "usd"))).statusCode());
    String id = agent.hostId();
    node.sql("INSERT INTO host_samples (host_id, at, power_w, power_source, disk_free_gb, rtt_ms)"
        + " SELECT '" + id + "', now() - k * interval '1 minute', 1400 + 200 * sin(k / 20.0), 'measured', 3000, 3"
        + " FROM generate_series(1, 180) AS k");
    node.sql("INSERT INTO gpu_samples (host_id, gpu_index, at, temperature_c, power_draw_w, utilization_pct)"
        + " SELECT '" + id + "', g, now() - k * interval '1 minute', 55 + 10 * g + 8 * sin(k / 15.0),"
        + " 300 + 50 * cos(k / 25.0), 60 + 35 * sin(k / 30.0) FROM generate_series(1, 180) AS k, generate_series(0, 1) AS g");
    node.sql("INSERT INTO gpu_telemetry_hourly (host_id, gpu_index, hour, samples, covered_seconds, temperature_min_c,"
        + " temperature_avg_c, temperature_max_c, power_draw_w_avg, energy_wh, utilization_avg_pct)"
        + " SELECT '" + id + "', g, date_trunc('hour', now()) - h * interval '1 hour', 360, 3600, 50, 58 + 6 * sin(h / 4.0) + 5 * g,"
        + " 75, 310, 310, 55 + 30 * sin(h / 6.0) FROM generate_series(1, 48) AS h, generate_series(0, 1) AS g");
    node.sql("INSERT INTO host_telemetry_hourly (host_id, hour, samples, measured_samples, covered_seconds, power_w_avg,"
        + " energy_wh) SELECT '" + id + "', date_trunc('hour', now()) - h * interval '1 hour', 360, 360, 3600,"
        + " 1400 + 150 * sin(h / 5.0), 1400 FROM generate_series(1, 48) AS h");
    for (int i = 0; i < 3; i++) {
      assertEquals(200, agent.heartbeat(FakeAgent.telemetry(3000, 61, 91)).statusCode());
    }
    // three launches, as the fleet records them: due, then running 30, 40 and 200 s later
    node.sql("INSERT INTO instances (reservation_id, host_id, gpu_indexes, ssh_public_key, unix_user, ends_at, state,"
        + " due_at, running_at) SELECT 'rsv_ttr' || s || '_" + id + "', '" + id + "', '{0}', 'ssh-ed25519 AAAA', 'u' || s,"
        + " now() - interval '1 hour', 'stopped', now() - interval '2 hours', now() - interval '2 hours' + s * interval '1 second'"
        + " FROM unnest(ARRAY[30, 40, 200]) AS s");
    TestGateway.await(node.gateway().jobs().runNow(AlertsFeature.EVALUATE)); // GPU 1 is degraded: an incident
    eventually("the degraded GPU's incident", () -> node.sql("SELECT count(*) FROM alert_incidents WHERE status = 'open'"
        + " AND details->>'host_id' = '" + id + "'").iterator().next().getLong(0), n -> n == 1);
    return agent;
  }

  private static long painted(String chart) {
    return (Long) browser.driver().executeScript(PAINTED, chart);
  }

  private static String text(String selector) {
    return browser.driver().findElement(By.cssSelector(selector)).getText();
  }

  /** Kept under target/ to look at (the page as Chromium rendered it). */
  private static void screenshot(String name) throws Exception {
    Path file = Path.of("target", "screenshots", name);
    Files.createDirectories(file.getParent());
    Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
