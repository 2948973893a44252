package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.BrowserTestBase;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator opens Economics in Chromium: both charts draw (canvases with data), the per-host
 * table sorts by margin, and the page is saved as docs/operating.md's screenshot (docs/images/economics.png).
 */
class EconomicsBrowserTest extends BrowserTestBase {
  private static final String PIXELS = """
      const c = document.getElementById(arguments[0]);
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) { if (d[i] > 0) n++; }
      return n;""";

  private static final Instant TODAY = Instant.now().truncatedTo(ChronoUnit.DAYS);
  private static final Instant FROM = TODAY.minus(1, ChronoUnit.DAYS);
  private static final Instant TO = TODAY.plus(6, ChronoUnit.DAYS);

  @Test
  void economicsDrawsItsChartsAndSortsHostsByMargin() throws Exception {
    scenario();
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(30));
    browser.driver().manage().window().setSize(new Dimension(1400, 2000));
    browser.driver().get(node.url("/operator/economics"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("operator-signin"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='operator']"))).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/operator/economics")));

    wait.until(ExpectedConditions.or(ExpectedConditions.presenceOfElementLocated(By.id("usage-chart")),
        ExpectedConditions.presenceOfElementLocated(By.id("economics-error"))));
    assertEquals(List.of(), browser.driver().findElements(By.id("economics-error")).stream().map(e -> e.getText())
        .toList(), "no error on the page");
    wait.until(ExpectedConditions.attributeToBe(By.id("usage-chart"), "data-points", "30"));
    setDate("economics-from", FROM);
    setDate("economics-to", TO);
    browser.driver().findElement(By.id("economics-apply")).click();
    wait.until(ExpectedConditions.attributeToBe(By.id("usage-chart"), "data-points", "7"));
    for (String chart : List.of("usage-chart", "waterfall-chart")) {
      wait.until(ExpectedConditions.attributeToBeNotEmpty(browser.driver().findElement(By.id(chart)), "data-points"));
      int points = Integer.parseInt(browser.driver().findElement(By.id(chart)).getAttribute("data-points"));
      assertTrue(points > 0, chart + " has data");
      long drawn = (Long) browser.driver().executeScript(PIXELS, chart);
      assertTrue(drawn > 1000, chart + " drew " + drawn + " pixels");
      assertTrue(!browser.driver().findElement(By.id(chart)).getAttribute("aria-label").isBlank(), "a text alternative");
    }
    assertTrue(browser.driver().findElement(By.id("economics-summary")).getText().contains("revenue"));
    List<Long> descending = margins();
    assertTrue(descending.size() > 1 && descending.equals(descending.stream().sorted((a, b) -> Long.compare(b, a))
        .toList()), descending.toString());
    assertTrue(browser.driver().findElement(By.id("economics-hosts")).getText().contains("Break-even"),
        "price suggestions next to each host");
    String paidBack = browser.driver().findElement(By.cssSelector("#economics-groups tbody tr td.payback")).getText();
    assertTrue(paidBack.matches("-?[\\d.,]+%.*\\(.+\\)"), "the fleet's hardware paid back to date: " + paidBack);
    Path shot = Path.of("..", "docs", "images", "economics.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, browser.driver().getScreenshotAs(OutputType.BYTES));

    // the reusable suggestions component: a higher target margin asks a higher price
    String h200 = ".price-suggestions [data-offer='off_nyc_h200_01'] .target-price";
    String at30 = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(h200))).getText();
    browser.driver().executeScript("const el = document.getElementById('target-margin-all'); el.value = '50';"
        + " el.dispatchEvent(new Event('change', {bubbles: true}));");
    wait.until(ExpectedConditions.not(ExpectedConditions.textToBe(By.cssSelector(h200), at30)));
    assertTrue(cents(browser.driver().findElement(By.cssSelector(h200)).getText()) > cents(at30),
        at30 + " at 30 %, " + browser.driver().findElement(By.cssSelector(h200)).getText() + " at 50 %");

    browser.driver().findElement(By.id("sort-margin")).click();
    List<Long> ascending = margins();
    assertEquals(ascending.stream().sorted().toList(), ascending, "sorted the other way");
    assertEquals(descending.stream().sorted().toList(), ascending);
    String csv = browser.driver().findElement(By.id("economics-csv")).getAttribute("href");
    assertTrue(csv.contains("format=csv") && csv.contains("from=" + FROM.toString().replace(":", "%3A")), csv);
    assertEquals(List.of(), browser.consoleErrors());
  }

  private static long cents(String price) {
    return Long.parseLong(price.replaceAll("/GPU-h", "").replaceAll("[^0-9]", ""));
  }

  private static List<Long> margins() {
    return browser.driver().findElements(By.cssSelector("#economics-hosts tbody tr")).stream()
        .map(row -> Long.parseLong(row.getAttribute("data-margin"))).toList();
  }

  /** Bookings and payments through the API, costs for the demo hosts, measured power for most hours. */
  private static void scenario() {
    ApiClient renter = ApiClient.signIn(node, "econ-browser");
    renter.saveCard("4242424242424242");
    renter.reserve("off_nyc_h100_01", 8, TODAY.plus(1, ChronoUnit.DAYS), 48, "saved_card");
    renter.reserve("off_nyc_h200_01", 4, TODAY.plus(36, ChronoUnit.HOURS), 60, "saved_card");
    renter.reserve("off_fra_a100_01", 4, TODAY.plus(2, ChronoUnit.DAYS), 24, "saved_card");
    renter.reserve("off_fra_l40s_01", 2, TODAY.plus(26, ChronoUnit.HOURS), 10, "saved_card");
    renter.reserve("off_osl_4090_01", 1, TODAY.plus(74, ChronoUnit.HOURS), 20, "saved_card");
    ApiClient operator = ApiClient.signIn(node, "operator");
    for (var row : node.sql("SELECT host_id FROM offers WHERE id LIKE 'off\\_%\\_01' ORDER BY id")) {
      String host = row.getString(0);
      HttpResponse<String> put = node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/operator/hosts/" + host
              + "/costs"))).header("Authorization", "Bearer " + operator.token())
          .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(new JsonObject()
              .put("currency", "usd").put("purchase_price", 2_500_000).put("residual_value", 250_000)
              .put("depreciation_months", 36).put("electricity_price_per_kwh", 18).put("pue", 1.3)
              .put("colocation_per_month", 30_000).put("bandwidth_per_month", 5_000).put("maintenance_per_month", 5_000)
              .encode())));
      assertEquals(200, put.statusCode(), put.body());
      // measured power for all but the last day of the range shown
      node.sql("INSERT INTO host_telemetry_hourly (host_id, hour, samples, measured_samples, covered_seconds,"
          + " power_w_avg, energy_wh) SELECT '" + host + "', h, 60, 60, 3600, 1800, 1800 FROM generate_series('"
          + FROM + "'::timestamptz, '" + TODAY.plus(5, ChronoUnit.DAYS) + "'::timestamptz, interval '1 hour') h"
          + " ON CONFLICT DO NOTHING");
    }
  }

  private static void setDate(String id, Instant day) {
    browser.driver().executeScript("const el = document.getElementById(arguments[0]); el.value = arguments[1];"
        + " el.dispatchEvent(new Event('input', {bubbles: true}));", id, day.toString().substring(0, 10));
  }
}
