package io.gpurental.gateway.auth.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.auth.signin.Pkce;
import io.gpurental.gateway.testing.BrowserTestBase;
import io.gpurental.gateway.testing.WebSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A person in Chromium: an MCP client's authorization sends them through the web app's sign-in
 * to the consent page, they set a budget and allow; the Account page lists the client and
 * revokes it.
 */
class OAuthConsentBrowserTest extends BrowserTestBase {
  @Test
  void signInConsentWithABudgetThenSeeAndRevokeTheClientOnTheAccountPage() throws Exception {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    String clientId = OAuthDance.register(node, "Claude Desktop (test)");
    Map<String, String> params = OAuthDance.request(clientId, Pkce.challenge(Pkce.newVerifier()));
    params.put("resource", node.url("/mcp"));
    browser.driver().get(node.url("/oauth/authorize?" + OAuthDance.form(params)));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='alice']"))).click();

    wait.until(ExpectedConditions.urlContains("/oauth/consent?request="));
    assertTrue(browser.driver().findElement(By.tagName("h1")).getText().contains("Claude Desktop (test)"));
    browser.driver().findElement(By.id("daily_cap")).sendKeys("25");
    browser.driver().findElement(By.id("max_hours")).sendKeys("8");
    screenshot("oauth-consent");
    browser.driver().findElement(By.cssSelector("button[value='allow']")).click();
    wait.until(ExpectedConditions.urlContains("code="));
    Map<String, String> callback = WebSession.query(browser.driver().getCurrentUrl());
    assertNotNull(callback.get("code"));
    assertEquals(params.get("state"), callback.get("state"));
    assertEquals(2500L, node.sql("SELECT b.daily_cap FROM token_budgets b JOIN oauth_grants g ON g.token_id = b.token_id"
        + " WHERE g.client_id = '" + clientId + "'").iterator().next().getLong(0));

    browser.driver().get(node.url("/account"));
    wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("tr.oauth-grant-row"), 1));
    assertTrue(browser.driver().findElement(By.id("oauth-grant-table")).getText().contains("Claude Desktop (test)"));
    browser.driver().executeScript("document.getElementById('oauth-grants-heading').scrollIntoView()");
    screenshot("oauth-grants");
    browser.driver().findElement(By.cssSelector("button.revoke-grant")).click();
    browser.driver().findElement(By.cssSelector("button.revoke-grant")).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("oauth-grant-empty")));
    assertEquals(1L, node.sql("SELECT count(*) FROM api_tokens t JOIN oauth_grants g ON g.token_id = t.id"
        + " WHERE g.client_id = '" + clientId + "' AND t.revoked_at IS NOT NULL").iterator().next().getLong(0));
  }

  private static void screenshot(String name) throws Exception {
    Path shot = Path.of("target", "screenshots", name + ".png");
    Files.createDirectories(shot.getParent());
    Files.write(shot, browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
