package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.BrowserTestBase;
import io.gpurental.gateway.testing.TestBookings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * In Chromium: the operator plans a maintenance window on the Hosts page, sees the reservation it
 * overlaps and confirms; hosts show their uptime, and the offer page shows the three figures and
 * the formula.
 */
class MaintenanceBrowserTest extends BrowserTestBase {
  private static final String HOST = "host_fra_l40s_01";
  private static final DateTimeFormatter LOCAL_INPUT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm")
      .withZone(ZoneId.systemDefault());

  @Test
  void theOperatorSeesTheOverlapsConfirmsAndTheOfferShowsItsUptime() throws Exception {
    Instant start = Instant.now().plus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
    TestBookings.book(node, HOST, 1, start.minus(1, ChronoUnit.HOURS), start.plus(2, ChronoUnit.HOURS));
    String booked = node.sql("SELECT id FROM reservations WHERE host_id = '" + HOST + "'").iterator().next().getString(0);
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/operator/hosts"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("operator-signin"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='operator']"))).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/operator/hosts")));

    WebElement uptime = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("#host-" + HOST + " .host-uptime")));
    assertTrue(uptime.getText().contains("%"), "a seeded active host has served: " + uptime.getText());
    ((org.openqa.selenium.JavascriptExecutor) browser.driver()).executeScript("arguments[0].scrollIntoView()", uptime);
    screenshot("hosts-uptime.png");
    wait.until(ExpectedConditions.elementToBeClickable(By.id("maintenance-" + HOST))).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("no-maintenance")));
    type("maintenance-start", LOCAL_INPUT.format(start));
    type("maintenance-end", LOCAL_INPUT.format(start.plus(4, ChronoUnit.HOURS)));
    browser.driver().findElement(By.id("maintenance-reason")).sendKeys("Replace a fan");
    browser.driver().findElement(By.id("maintenance-submit")).click();

    WebElement overlaps = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("maintenance-overlaps")));
    assertTrue(overlaps.getText().contains(booked), overlaps.getText());
    assertEquals(0L, node.sql("SELECT count(*) FROM maintenance_windows").iterator().next().getLong(0),
        "nothing saved before the operator confirms");
    screenshot("maintenance-overlaps.png");
    browser.driver().findElement(By.id("maintenance-confirm")).click();
    WebElement listed = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("maintenance-windows")));
    assertTrue(listed.getText().contains("Replace a fan"), listed.getText());
    assertEquals(1L, node.sql("SELECT count(*) FROM maintenance_windows WHERE host_id = '" + HOST + "' AND starts_at = '"
        + start + "'").iterator().next().getLong(0));
    screenshot("maintenance-saved.png");

    browser.driver().get(node.url("/catalog/off_fra_l40s_01"));
    WebElement figures = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("offer-uptime")));
    assertTrue(figures.getText().contains("Last 30 days"), figures.getText());
    assertTrue(browser.driver().findElement(By.id("uptime-formula")).getText()
        .contains("uptime = 1 − down time ÷ (period − planned maintenance)"));
    ((org.openqa.selenium.JavascriptExecutor) browser.driver()).executeScript(
        "document.getElementById('uptime-heading').scrollIntoView()");
    screenshot("offer-uptime.png");
    browser.driver().get(node.url("/catalog"));
    WebElement card = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".offer-card__uptime")));
    assertTrue(card.getText().contains("%"), card.getText());
    screenshot("catalog-uptime.png");
    assertEquals(List.of(), browser.consoleErrors());
  }

  /** Sets a datetime-local input as a person picking a time would (typing into it depends on the locale). */
  private static void type(String id, String value) {
    ((org.openqa.selenium.JavascriptExecutor) browser.driver()).executeScript(
        "const el = document.getElementById(arguments[0]);"
            + "Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, arguments[1]);"
            + "el.dispatchEvent(new Event('input', { bubbles: true }));", id, value);
  }

  private static void screenshot(String name) throws Exception {
    Path file = Path.of("target", "screenshots", name);
    Files.createDirectories(file.getParent());
    Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
