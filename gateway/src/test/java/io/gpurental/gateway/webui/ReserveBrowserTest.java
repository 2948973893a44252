package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.BrowserTestBase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/** A signed-in renter quotes an offer, holds the GPUs, watches the hold and cancels it. */
class ReserveBrowserTest extends BrowserTestBase {
  private static final String SSH_KEY =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc me@laptop";

  /** Each test signs in afresh: the browser is shared by the class. */
  @org.junit.jupiter.api.BeforeEach
  void signedOut() {
    browser.driver().get(node.url("/"));
    browser.driver().manage().deleteAllCookies();
  }

  @Test
  void payTheHoldByCardAndSeeItConfirmed() {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(30));
    browser.driver().get(node.url("/signin?return_to=/catalog/off_osl_5090_01"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='bob']"))).click();
    wait.until(ExpectedConditions.urlContains("/catalog/off_osl_5090_01"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("get-quote"))).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("quote-total")));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("reserve"))).click();
    WebElement key = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("reserve-ssh-key")));
    key.clear();
    key.sendKeys(SSH_KEY);
    browser.driver().findElement(By.id("confirm-reserve")).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("pay"))).click();

    pay("4000 0000 0000 0002");
    assertEquals("Your card was declined.",
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("payment-error"))).getText());
    pay("4242 4242 4242 4242");
    wait.until(ExpectedConditions.urlContains("/reservations/rsv_"));
    // the quote starts now, so the scheduler may already have started it by the time the page shows
    wait.until(driver -> List.of("confirmed", "provisioning", "running")
        .contains(driver.findElement(By.id("status")).getAttribute("data-status")));
  }

  private void pay(String number) {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(15));
    WebElement card = wait.until(ExpectedConditions.elementToBeClickable(By.id("card-number")));
    card.clear();
    card.sendKeys(number);
    WebElement expiry = browser.driver().findElement(By.id("card-expiry"));
    expiry.clear();
    expiry.sendKeys("12 / 34");
    browser.driver().findElement(By.id("card-cvc")).sendKeys("123");
    WebElement name = browser.driver().findElement(By.id("card-name"));
    name.clear();
    name.sendKeys("Bob Payer");
    browser.driver().findElement(By.id("submit-payment")).click();
  }

  /**
   * The cheapest demo offer (0.35 USD per GPU-hour, 0.36 all in) costs less than the 0.50 USD card
   * minimum for one hour: the form starts at two, says why, and the first booking goes through.
   */
  @Test
  void theCheapestOfferStartsAtALengthACardCanPay() {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/signin?return_to=/catalog/off_osl_4090_01"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='bob']"))).click();
    wait.until(ExpectedConditions.urlContains("/catalog/off_osl_4090_01"));

    WebElement hours = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("quote-hours")));
    assertEquals("2", hours.getAttribute("value"));
    String hint = browser.driver().findElement(By.id("quote-hours-hint")).getText();
    assertTrue(hint.contains("$0.50") && hint.contains("at least 2 hours"), hint);
    wait.until(ExpectedConditions.urlContains("hours=2"));
    browser.driver().findElement(By.id("get-quote")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("quote-total"), "$0.72"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("reserve"))).click();
    WebElement key = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("reserve-ssh-key")));
    key.clear();
    key.sendKeys(SSH_KEY);
    browser.driver().findElement(By.id("confirm-reserve")).click();
    wait.until(ExpectedConditions.urlMatches(".*/reservations/rsv_[A-Za-z0-9]+$"));
    String reservationId = browser.driver().getCurrentUrl().replaceAll(".*/reservations/", "");
    assertEquals(72L, node.sql("SELECT (price->'total'->>'amount')::bigint FROM reservations WHERE id = '"
        + reservationId + "'").iterator().next().getLong(0));
    assertEquals(List.of(), browser.consoleErrors());
  }

  @Test
  void quoteHoldSeeTheHoldAndCancelIt() {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/signin?return_to=/catalog/off_fra_a100_01"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='alice']"))).click();
    wait.until(ExpectedConditions.urlContains("/catalog/off_fra_a100_01"));

    new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("quote-gpu-count")))).selectByValue("2");
    browser.driver().findElement(By.id("get-quote")).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("quote-total")));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("reserve"))).click();
    WebElement key = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("reserve-ssh-key")));
    key.clear();
    key.sendKeys(SSH_KEY);
    browser.driver().findElement(By.id("confirm-reserve")).click();

    wait.until(ExpectedConditions.urlMatches(".*/reservations/rsv_[A-Za-z0-9]+$"));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reservation-status"), "Pending payment"));
    String countdown = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("hold-countdown"))).getText();
    assertTrue(countdown.matches(".*1[45] min \\d\\d s.*"), "a running 15-minute countdown: " + countdown);
    String reservationId = browser.driver().getCurrentUrl().replaceAll(".*/reservations/", "");
    assertEquals(1L, node.sql("SELECT count(*) FROM reservations WHERE id = '" + reservationId
        + "' AND status = 'pending_payment' AND gpu_count = 2").iterator().next().getLong(0));

    wait.until(ExpectedConditions.elementToBeClickable(By.id("cancel-reservation"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("cancel-reservation"))).click();
    wait.until(driver -> "cancelled".equals(node.sql("SELECT status FROM reservations WHERE id = '" + reservationId
        + "'").iterator().next().getString(0)));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reservation-status"), "Cancelled"));

    browser.driver().get(node.url("/reservations"));
    List<WebElement> rows = wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".reservation-row"), 1));
    assertEquals(reservationId, rows.get(0).getAttribute("data-reservation-id"));
    assertEquals(List.of(), browser.consoleErrors());
  }
}
