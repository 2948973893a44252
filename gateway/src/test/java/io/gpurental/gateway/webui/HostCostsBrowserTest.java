package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.BrowserTestBase;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The operator enters a host's costs on its page: a bad PUE is explained, a change starts a new period. */
class HostCostsBrowserTest extends BrowserTestBase {
  private static final String HOST = "host_nyc_h100_01";

  @Test
  void anOperatorChangesTheElectricityPriceFromThisHourOn() throws Exception {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/operator/hosts/" + HOST));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("operator-signin"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='operator']"))).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/operator/hosts/" + HOST)));
    WebElement history = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("costs-history")));
    assertTrue(history.getText().contains("Since the host joined"), history.getText());
    assertEquals("0.15", field("electricity_price_per_kwh").getAttribute("value"), "the demo's 15¢ per kWh");

    type("pue", "0.8");
    browser.driver().findElement(By.id("costs-submit")).click();
    WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("costs-error")));
    assertEquals("PUE: a number from 1 to 10, e.g. 1.35.", error.getText());
    assertEquals("true", field("pue").getAttribute("aria-invalid"), "the PUE field is marked");

    type("pue", "1.3");
    type("electricity_price_per_kwh", "0.31");
    browser.driver().findElement(By.id("costs-submit")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("costs-message"), "earlier hours keep their costs"));
    wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#costs-history tbody tr"), 2));
    browser.driver().executeScript("document.getElementById('costs-heading').scrollIntoView()");
    Path shot = Path.of("target", "screenshots", "host-costs.png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, browser.driver().getScreenshotAs(OutputType.BYTES));

    JsonObject costs = ApiClient.signIn(node, "operator").json("/api/v1/operator/hosts/" + HOST + "/costs");
    assertEquals(31, costs.getLong("electricity_price_per_kwh"));
    assertEquals(15, costs.getJsonArray("history").getJsonObject(1).getLong("electricity_price_per_kwh"),
        "the demo's costs still price the hours before");

    new Select(field("from")).selectByValue("joined");
    type("electricity_price_per_kwh", "0.16");
    browser.driver().findElement(By.id("costs-submit")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("costs-message"), "since the host joined"));
    JsonObject corrected = ApiClient.signIn(node, "operator").json("/api/v1/operator/hosts/" + HOST + "/costs");
    assertEquals(31, corrected.getLong("electricity_price_per_kwh"), "the current period is untouched");
    assertEquals(16, corrected.getJsonArray("history").getJsonObject(1).getLong("electricity_price_per_kwh"),
        "the first costs corrected");
    assertEquals(2, corrected.getJsonArray("history").size());
    assertEquals(25_000_000, costs.getLong("purchase_price"), "the other fields were sent as shown");
    assertEquals(java.util.List.of(), browser.consoleErrors());
  }

  private static WebElement field(String name) {
    return browser.driver().findElement(By.id("costs-" + name));
  }

  private static void type(String name, String value) {
    WebElement input = field(name);
    input.clear();
    input.sendKeys(value);
  }
}
