package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.BrowserTestBase;
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
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Time-to-ready and the ready guarantee where a renter looks: the catalog card's "ready in ~…",
 * the fleet-wide figure on the catalog page, p50/p95/samples on the offer page, the guarantee next
 * to the cancellation policy in the quote, and each credit with its reason on the reservation page.
 */
class ReadyGuaranteeBrowserTest extends BrowserTestBase {
  private static final String OFFER = "off_nyc_h100_01";

  @Test
  void catalogOfferQuoteAndReservationShowTimeToReadyAndCredits() throws Exception {
    String hostId = node.sql("SELECT host_id FROM offers WHERE id = '" + OFFER + "'").iterator().next().getString(0);
    int n = 0;
    for (int seconds : new int[] {30, 40, 45, 50, 120}) {
      // past launches (no longer desired, so the demo agent does not try to start them again)
      node.sql("INSERT INTO instances (reservation_id, host_id, gpu_indexes, ssh_public_key, unix_user, ends_at, due_at,"
          + " running_at, desired) VALUES ('rsv_ui_" + (++n) + "', '" + hostId + "', '{0}', 'k', 'u', now(), now() - interval '"
          + seconds + " seconds', now(), false)");
    }
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/catalog"));
    WebElement card = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector(".offer-card[data-offer-id='" + OFFER + "']")));
    assertEquals("Ready in ~45 sec", card.findElement(By.cssSelector(".offer-card__ready")).getText());
    assertTrue(browser.driver().findElements(By.cssSelector(".offer-card__ready")).stream()
        .anyMatch(e -> e.getText().equals("Ready time: no data yet")), "hosts without launches say so");
    String fleet = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("fleet-ready-time"))).getText();
    assertTrue(fleet.contains("~45 sec") && fleet.contains("5 launches"), fleet);
    screenshot("catalog", card);

    browser.driver().get(node.url("/catalog/" + OFFER));
    String figures = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("offer-ready-time"))).getText();
    // 30, 40, 45, 50, 120 s: p50 = 45; p95 at rank 3.8 = 50 + 0.8 · 70 = 106 s, shown as 2 min
    assertTrue(figures.contains("45 sec") && figures.contains("2 min") && figures.contains("5"), figures);
    new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("quote-gpu-count")))).selectByValue("1");
    browser.driver().findElement(By.id("get-quote")).click();
    String guarantee = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("quote-ready-guarantee")))
        .getText();
    assertTrue(guarantee.contains("within 10 minutes") && guarantee.contains("every started hour"), guarantee);
    assertTrue(guarantee.startsWith("If your instance"), "the heading names it, the text does not again: " + guarantee);
    screenshot("quote", browser.driver().findElement(By.id("quote-ready-guarantee")));
    screenshot("offer", browser.driver().findElement(By.id("offer-ready-time")));

    String login = "credited-" + UUID.randomUUID().toString().substring(0, 8);
    ApiClient renter = ApiClient.signIn(node, login);
    renter.saveCard("4242424242424242");
    String id = renter.reserve(OFFER, 1, null, 2, "saved_card").getString("id");
    node.sql("INSERT INTO reservation_credits (id, reservation_id, kind, reason, from_at, to_at, hours, amount, currency)"
        + " VALUES ('crd_ui_1', '" + id + "', 'ready_late', 'ready 32 min after it was due (guarantee: 10 min)',"
        + " now() - interval '32 minutes', now(), 1, 205, 'usd')");
    signIn(login, "/reservations/" + id);
    WebElement credits = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("reservation-credits")));
    WebElement row = credits.findElement(By.cssSelector("tr[data-credit-kind='ready_late']"));
    assertTrue(row.getText().contains("Instance ready late") && row.getText().contains("32 min after it was due")
        && row.getText().contains("$2.05"), row.getText());
    screenshot("reservation", credits);
    assertEquals(List.of(), browser.consoleErrors());
  }

  private void signIn(String login, String returnTo) {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/signin?return_to=" + returnTo));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("login"))).sendKeys(login);
    browser.driver().findElement(By.cssSelector("button[name='decision'][value='approve']")).click();
    wait.until(ExpectedConditions.urlMatches(".*" + returnTo + "$"));
  }

  /** Keeps a full-page picture for a person to look at (target/screenshots). */
  private static void screenshot(String name, WebElement shown) throws Exception {
    browser.driver().executeScript("arguments[0].scrollIntoView({block: 'center'})", shown);
    Path dir = Path.of("target", "screenshots");
    Files.createDirectories(dir);
    Files.write(dir.resolve("ready-guarantee-" + name + ".png"), browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
