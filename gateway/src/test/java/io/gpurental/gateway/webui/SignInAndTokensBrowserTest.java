package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.BrowserTestBase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** A person signs in through the sandbox GitHub in Chromium and manages an API token. */
class SignInAndTokensBrowserTest extends BrowserTestBase {
  @Test
  void signInCreateATokenSeeItOnceThenOnlyItsPrefix() {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/account"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("account-signin"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();

    // the sandbox GitHub's page: pick the test person "alice"
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='alice']"))).click();

    wait.until(ExpectedConditions.urlToBe(node.url("/account")));
    WebElement name = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("account-name")));
    assertEquals("Alice", name.getText());
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("identity-list"), "alice"));

    browser.driver().findElement(By.id("token-name")).sendKeys("laptop script");
    browser.driver().findElement(By.id("scope-catalog-read")).click();
    browser.driver().findElement(By.id("create-token")).click();
    WebElement secretField = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("new-token-secret")));
    String secret = secretField.getAttribute("value");
    assertTrue(secret.startsWith("gpr_") && secret.length() == 42, secret);

    browser.driver().findElement(By.id("new-token-done")).click();
    wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("new-token")));
    List<WebElement> rows = wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("tr.token-row"), 1));
    String prefix = rows.get(0).findElement(By.cssSelector(".token-prefix")).getText();
    assertEquals(secret.substring(0, 10), prefix);
    assertFalse(browser.driver().getPageSource().contains(secret.substring(10)), "the secret is gone from the page");

    browser.driver().navigate().refresh();
    wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("tr.token-row"), 1));
    assertFalse(browser.driver().getPageSource().contains(secret.substring(10)), "and never shown again");
    assertEquals(List.of(), browser.consoleErrors());
  }
}
