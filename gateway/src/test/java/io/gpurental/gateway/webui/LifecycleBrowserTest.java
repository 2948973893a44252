package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.BrowserTestBase;
import io.gpurental.gateway.testing.GatewayTest;
import io.vertx.sqlclient.Row;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A renter's whole reservation in Chromium: quote, hold, pay at checkout, watch it start and run
 * with its SSH command, cancel with the refund shown before and after; and a saved card that pays
 * a reservation at once, listed on the Payments page, then removed.
 */
@GatewayTest(settings = {
    "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200",
    "GATEWAY_RESERVATIONS_SANDBOX_INSTANCE_READY_MS=500"})
class LifecycleBrowserTest extends BrowserTestBase {
  private static final String SSH_KEY =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc me@laptop";
  private static final String TEST_VISA = "4242 4242 4242 4242";
  /** The default policy: after the start, the unused whole hours minus a 10 % fee. */
  private static final long FEE_BPS = 1000;

  /** Each test signs in afresh as a new person: the browser is shared by the class. */
  @BeforeEach
  void signedOut() {
    browser.driver().get(node.url("/"));
    browser.driver().manage().deleteAllCookies();
    browser.driver().executeScript("window.localStorage.clear(); window.sessionStorage.clear();");
    browser.consoleErrors();
  }

  @Test
  void quoteReservePayAndWatchItRunThenCancelWithTheRefundShown() {
    WebDriverWait wait = waitUpTo(30);
    signIn(fresh("runner"), "/catalog/off_osl_5090_01");
    // No start picked: the form quotes "now" (Offer.tsx startInstant). 3 h so that cancelling in
    // the first hour refunds the 2 unused whole hours.
    quote(3);
    holdWithKey(By.id("confirm-reserve"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("pay"))).click();
    payOnCheckout(TEST_VISA);
    String reservationId = awaitReservationPage(wait);

    // The page follows confirmed -> provisioning -> running by itself, without a reload.
    wait.until(ExpectedConditions.attributeToBe(By.id("status"), "data-status", "running"));
    assertEquals("Running", text("status"));
    assertTrue(text("ssh-command").matches("ssh -p \\d+ rsv_[0-9a-f]{16}@.+\\.invalid"), text("ssh-command"));
    assertTrue(browser.driver().findElement(By.id("copy-ssh-command")).isDisplayed());
    assertTrue(text("time-left").endsWith("left"), text("time-left"));
    assertEquals("succeeded", browser.driver().findElement(By.id("payment-status")).getAttribute("data-status"));
    assertEquals(List.of("pending_payment", "confirmed", "provisioning", "running"), timeline());

    String shownRefund = openCancelAndReadRefund(wait, reservationId);
    browser.driver().findElement(By.id("cancel-confirm")).click();
    wait.until(ExpectedConditions.attributeToBe(By.id("status"), "data-status", "cancelled"));
    assertEquals("Cancelled", text("status"));
    assertEquals("cancelled", timeline().get(timeline().size() - 1));
    seeTheRefund(reservationId, shownRefund);
    assertEquals(List.of(), browser.consoleErrors());
  }

  @Test
  void saveACardThenReserveWithItAndSeeThePayment() {
    WebDriverWait wait = waitUpTo(30);
    signIn(fresh("saver"), "/account");
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("no-saved-card")));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("save-card"))).click();
    payOnCheckout(TEST_VISA);
    wait.until(ExpectedConditions.urlContains("/account"));
    awaitSavedCardReloading("4242");

    browser.driver().get(node.url("/catalog/off_osl_4090_01"));
    // 2 h: one RTX 4090 for 1 h ($0.36) is below Stripe's minimum charge of $0.50.
    quote(2);
    holdWithKey(By.id("pay-saved-card"));
    String reservationId = awaitReservationPage(wait);
    // Charged at once: confirmed, or already started by the scheduler.
    wait.until(driver -> Set.of("confirmed", "provisioning", "running")
        .contains(driver.findElement(By.id("status")).getAttribute("data-status")));
    assertEquals("succeeded", browser.driver().findElement(By.id("payment-status")).getAttribute("data-status"));

    wait.until(ExpectedConditions.elementToBeClickable(By.id("nav-payments"))).click();
    wait.until(ExpectedConditions.urlMatches(".*/payments$"));
    List<WebElement> payments = wait.until(
        ExpectedConditions.numberOfElementsToBe(By.cssSelector("#payments-list li.payment-item"), 1));
    assertEquals("succeeded", payments.get(0).getAttribute("data-status"));
    assertEquals(reservationId, payments.get(0).findElement(By.cssSelector(".payment-item__reservation")).getText());

    wait.until(ExpectedConditions.elementToBeClickable(By.id("nav-account"))).click();
    assertEquals("4242", wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("saved-card-last4"))).getText());
    wait.until(ExpectedConditions.elementToBeClickable(By.id("remove-card"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("remove-card-confirm"))).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("no-saved-card")));
    assertEquals(0, browser.driver().findElements(By.id("saved-card")).size());
    assertEquals(List.of(), browser.consoleErrors());
  }

  /** Opens the cancel step and checks the refund it shows against the policy; returns its text. */
  private String openCancelAndReadRefund(WebDriverWait wait, String reservationId) {
    wait.until(ExpectedConditions.elementToBeClickable(By.id("cancel"))).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("cancel-panel")));
    String refund = text("cancel-refund");
    String fee = text("cancel-fee");
    assertTrue(refund.matches(".*\\d.*") && minorUnits(refund) > 0, "a refund: " + refund);
    assertTrue(text("cancel-policy").contains("unused whole hours"), text("cancel-policy"));
    // Cancelled in its first hour, 2 of the 3 paid hours are unused.
    long paid = sqlLong("SELECT amount FROM payments WHERE reservation_id = '" + reservationId
        + "' AND status = 'succeeded'");
    long unusedValue = paid * 2 / 3;
    long expectedFee = unusedValue * FEE_BPS / 10_000;
    assertEquals(unusedValue - expectedFee, minorUnits(refund), "refund shown: " + refund + ", paid " + paid);
    assertEquals(expectedFee, minorUnits(fee), "fee shown: " + fee);
    return refund;
  }

  /** After cancelling: the refund row, the page's answer to the cancel, and the refund done. */
  private void seeTheRefund(String reservationId, String shownRefund) {
    WebDriverWait wait = waitUpTo(10);
    List<WebElement> refunds = wait.until(
        ExpectedConditions.numberOfElementsToBe(By.cssSelector("#refunds .refund-row"), 1));
    assertEquals(shownRefund, refunds.get(0).findElement(By.cssSelector(".refund-row__amount")).getText());
    assertEquals("cancellation", refunds.get(0).findElement(By.cssSelector(".refund-row__reason"))
        .getAttribute("data-reason"));
    assertEquals(minorUnits(shownRefund), sqlLong("SELECT f.amount FROM refunds f JOIN payments p"
        + " ON p.id = f.payment_id WHERE p.reservation_id = '" + reservationId + "'"));
    // The cancel's own answer (the refund already asked of Stripe) must reach the page, even when
    // the live update of the cancellation arrived first.
    String result = wait.withMessage("the answer to the cancel is shown in #cancel-result")
        .until(ExpectedConditions.visibilityOfElementLocated(By.id("cancel-result"))).getText();
    assertTrue(result.contains(shownRefund + " is refunded"), result);
    wait.withMessage("the refund row shows the refund done").until(ExpectedConditions.attributeToBe(
        By.cssSelector("#refunds .refund-row"), "data-status", "succeeded"));
    assertEquals(shownRefund, text("payment-refunded"));
  }

  /**
   * Waits for the saved card on the account page, reloading it: the page only re-reads the card
   * after returning with {@code ?setup=…}, but the gateway returns to {@code /account?card=saved}.
   */
  private void awaitSavedCardReloading(String last4) {
    WebDriverWait wait = waitUpTo(30);
    wait.pollingEvery(Duration.ofSeconds(1));
    wait.until(driver -> {
      List<WebElement> shown = driver.findElements(By.id("saved-card-last4"));
      if (!shown.isEmpty() && last4.equals(shown.get(0).getText())) {
        return true;
      }
      driver.navigate().refresh();
      return false;
    });
  }

  private static String fresh(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** Signs a new person in with the sandbox GitHub by typing a login, and lands on {@code returnTo}. */
  private void signIn(String login, String returnTo) {
    WebDriverWait wait = waitUpTo(20);
    browser.driver().get(node.url("/signin?return_to=" + returnTo));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("login"))).sendKeys(login);
    browser.driver().findElement(By.cssSelector("button[name='decision'][value='approve']")).click();
    wait.until(ExpectedConditions.urlMatches(".*" + returnTo + "$"));
    wait.until(ExpectedConditions.presenceOfElementLocated(By.id("nav-payments")));
  }

  /** Quotes the open offer for {@code hours} from now (the form's default start). */
  private void quote(int hours) {
    WebDriverWait wait = waitUpTo(20);
    WebElement field = wait.until(ExpectedConditions.elementToBeClickable(By.id("quote-hours")));
    if (!Integer.toString(hours).equals(field.getAttribute("value"))) {
      // A changed window re-prices the offer and lands in the URL; quote once it has.
      field.sendKeys(Keys.chord(Keys.CONTROL, "a"), Integer.toString(hours), Keys.TAB);
      wait.until(ExpectedConditions.urlContains("hours=" + hours));
    }
    wait.until(ExpectedConditions.elementToBeClickable(By.id("get-quote"))).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("quote-total")));
    assertTrue(text("quote-window").contains(" × " + hours + " h,"), text("quote-window"));
  }

  /** Opens the reserve form, pastes the key and submits it with {@code button}. */
  private void holdWithKey(By button) {
    WebDriverWait wait = waitUpTo(20);
    wait.until(ExpectedConditions.elementToBeClickable(By.id("reserve"))).click();
    WebElement key = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("reserve-ssh-key")));
    key.clear();
    key.sendKeys(SSH_KEY);
    wait.until(ExpectedConditions.elementToBeClickable(button)).click();
  }

  /** Pays on the sandbox's hosted checkout page (payment or setup mode). */
  private void payOnCheckout(String number) {
    WebDriverWait wait = waitUpTo(15);
    wait.until(ExpectedConditions.elementToBeClickable(By.id("card-number"))).sendKeys(number);
    browser.driver().findElement(By.id("card-expiry")).sendKeys("12 / 34");
    browser.driver().findElement(By.id("card-cvc")).sendKeys("123");
    WebElement name = browser.driver().findElement(By.id("card-name"));
    name.clear();
    name.sendKeys("Rita Renter");
    browser.driver().findElement(By.id("submit-payment")).click();
  }

  /** Waits for a reservation's page (after checkout with {@code ?paid=…}); returns its id. */
  private String awaitReservationPage(WebDriverWait wait) {
    wait.until(ExpectedConditions.urlMatches(".*/reservations/rsv_[A-Za-z0-9]+(\\?.*)?$"));
    return browser.driver().getCurrentUrl().replaceAll(".*/reservations/([A-Za-z0-9_]+).*", "$1");
  }

  private List<String> timeline() {
    return browser.driver().findElements(By.cssSelector("#reservation-timeline li.timeline__item")).stream()
        .map(item -> item.getAttribute("data-status")).toList();
  }

  private static String text(String id) {
    return browser.driver().findElement(By.id(id)).getText().trim();
  }

  /** "$12.34" (any locale's grouping and symbol) as minor units of a two-decimal currency. */
  private static long minorUnits(String money) {
    String digits = money.replaceAll("\\D", "");
    assertTrue(!digits.isEmpty() && money.matches(".*\\d[.,]\\d\\d\\D*$"), "a formatted amount: " + money);
    return Long.parseLong(digits);
  }

  private static long sqlLong(String query) {
    Row row = node.sql(query).iterator().next();
    return row.getLong(0);
  }

  private static WebDriverWait waitUpTo(int seconds) {
    WebDriver driver = browser.driver();
    return new WebDriverWait(driver, Duration.ofSeconds(seconds));
  }
}
