package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.BrowserTestBase;
import io.gpurental.gateway.testing.WebSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator console's administration in Chromium: an operator finds a renter on the Accounts
 * page and suspends them with a reason (confirmed), after which the renter's session is refused;
 * the Reservations page offers a refund form, and the Ledger page shows the check; the suspended
 * renter's sign-in is refused with the reason.
 */
class AdministrationBrowserTest extends BrowserTestBase {
  @Test
  void anOperatorSuspendsARenterAndSeesTheReservationsAndTheLedger() throws Exception {
    WebSession tess = new WebSession();
    tess.signIn(node, "github", "tess");
    String tessId = tess.me(node).getString("id");
    ApiClient renter = ApiClient.signIn(node, "tess");
    renter.saveCard("4242424242424242");
    String reservation = renter.reserve("off_fra_a100_01", 1, Instant.now().plus(3, ChronoUnit.DAYS)
        .truncatedTo(ChronoUnit.HOURS), 4, "saved_card").getString("id");

    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/operator/accounts"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("operator-signin"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='operator']"))).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/operator/accounts")));

    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("account-q"))).sendKeys("tess");
    browser.driver().findElement(By.cssSelector("#account-search button[type='submit']")).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("suspend-" + tessId))).click();
    WebElement confirm = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-" + tessId)));
    assertTrue(!confirm.isEnabled(), "no suspension without a reason");
    browser.driver().findElement(By.id("reason-" + tessId)).sendKeys("Payment dispute under review");
    screenshot("admin-accounts-confirm.png");
    confirm.click();
    WebElement row = wait.until(ExpectedConditions.presenceOfElementLocated(
        By.cssSelector("#account-" + tessId + "[data-suspended='true']")));
    assertTrue(row.getText().contains("Payment dispute under review"), row.getText());
    screenshot("admin-accounts-suspended.png");
    assertEquals(403, tess.get(node.url("/api/v1/me")).statusCode(), "her session is refused at once");
    assertEquals("Payment dispute under review", node.sql("SELECT suspension_reason FROM accounts WHERE id = '"
        + tessId + "'").iterator().next().getString(0));

    browser.driver().findElement(By.cssSelector("a[href='/operator/reservations']")).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("filter-account"))).sendKeys(tessId);
    browser.driver().findElement(By.cssSelector("#reservation-filters button[type='submit']")).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("refund-" + reservation))).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("refund-amount-" + reservation))).sendKeys("1.50");
    browser.driver().findElement(By.id("refund-reason-" + reservation)).sendKeys("Slow network on the host");
    screenshot("admin-reservations-refund.png");
    browser.driver().findElement(By.id("refund-submit-" + reservation)).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reservations-message"), "Refund of"));
    assertEquals(150L, node.sql("SELECT amount FROM refund_requests WHERE reservation_id = '" + reservation + "'")
        .iterator().next().getLong(0));

    // the reservation's own page (the renter's view; operators may open any) shows it with the reason
    browser.driver().findElement(By.cssSelector("a[href='/reservations/" + reservation + "']")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".refund-row__note"),
        "Slow network on the host"));
    browser.driver().executeScript("arguments[0].scrollIntoView({block: 'center'})",
        browser.driver().findElement(By.cssSelector(".refund-row__note")));
    screenshot("admin-refund-on-reservation.png");

    browser.driver().get(node.url("/operator/ledger"));
    wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#ledger-check[data-ok='true']")));
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("reconciliation")));
    screenshot("admin-ledger.png");

    // the suspended renter trying to sign in is told why, not signed in
    browser.driver().findElement(By.id("signout")).click();
    wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("signout")));
    browser.driver().get(node.url("/signin"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("login"))).sendKeys("tess");
    browser.driver().findElement(By.cssSelector("button[name='decision'][value='approve']")).click();
    WebElement refused = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("signin-error")));
    assertTrue(refused.getText().contains("suspended") && refused.getText().contains("Payment dispute under review"),
        refused.getText());
    screenshot("admin-signin-suspended.png");
    assertEquals(List.of(), browser.consoleErrors());
  }

  /** Kept under target/ to look at (the page as Chromium rendered it). */
  private static void screenshot(String name) throws Exception {
    Path file = Path.of("target", "screenshots", name);
    Files.createDirectories(file.getParent());
    Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
