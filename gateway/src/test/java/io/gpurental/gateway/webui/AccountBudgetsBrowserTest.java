package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.BrowserTestBase;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
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
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Account page shows each token's budget (caps, spent, remaining) and edits it, and sets the
 * default budget that new tokens start with.
 */
class AccountBudgetsBrowserTest extends BrowserTestBase {
  private static final String OFFER = "off_fra_l40s_01";

  @Test
  void theOwnerSeesWhatATokenSpentEditsItsBudgetAndSetsTheDefault() throws Exception {
    String login = "budgeteer-" + UUID.randomUUID().toString().substring(0, 8);
    WebSession person = new WebSession();
    person.signIn(node, "github", login);
    HttpResponse<String> created = person.write("POST", node.url("/api/v1/tokens"), new JsonObject()
        .put("name", "research-agent").put("scopes", new JsonArray().add("reservations:write"))
        .put("budget", new JsonObject().put("daily_cap", 50_000).put("total_cap", 500_000).put("max_hours", 8)));
    assertEquals(201, created.statusCode(), created.body());
    JsonObject token = new JsonObject(created.body());
    assertEquals(50_000L, token.getJsonObject("budget").getLong("daily_cap"), "created with the budget it was given");
    long held = hold(token.getString("token"));

    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(30));
    signIn(wait, login);
    WebElement row = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector(".budget-row[data-token-id='" + token.getString("id") + "']")));
    assertTrue(row.getText().contains("$500.00") && row.getText().contains("8 h"), row.getText());
    assertTrue(row.getText().contains(String.format("$%,.2f", (50_000 - held) / 100.0) + " left"), row.getText());

    row.findElement(By.cssSelector("button.edit-budget")).click();
    WebElement daily = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-budget-form-daily_cap")));
    assertEquals("500.00", daily.getAttribute("value"));
    daily.clear();
    daily.sendKeys("750");
    browser.driver().findElement(By.id("token-budget-form-approval_threshold")).sendKeys("100");
    browser.driver().findElement(By.cssSelector("#token-budget-form button[type='submit']")).click();
    wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("token-budget-form")));
    JsonObject budget = new JsonObject(person.get(node.url("/api/v1/tokens/" + token.getString("id"))).body())
        .getJsonObject("budget");
    assertEquals(75_000L, budget.getLong("daily_cap"));
    assertEquals(10_000L, budget.getLong("approval_threshold"));
    assertEquals(500_000L, budget.getLong("total_cap"), "the other caps stay");

    browser.driver().findElement(By.id("default-budget-form-monthly_cap")).sendKeys("1000");
    browser.driver().findElement(By.id("default-budget-form-max_hours")).sendKeys("24");
    browser.driver().findElement(By.cssSelector("#default-budget-form button[type='submit']")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("default-budget-note"), "New tokens start"));
    ((org.openqa.selenium.JavascriptExecutor) browser.driver())
        .executeScript("document.getElementById('budgets-heading').scrollIntoView()");
    screenshot("account-budgets.png");
    JsonObject defaults = new JsonObject(person.get(node.url("/api/v1/account/default-budget")).body())
        .getJsonObject("default_budget");
    assertEquals(100_000L, defaults.getLong("monthly_cap"));
    assertEquals(24, defaults.getInteger("max_hours"));
    assertNull(defaults.getValue("daily_cap"));

    HttpResponse<String> next = person.write("POST", node.url("/api/v1/tokens"), new JsonObject()
        .put("name", "next-agent").put("scopes", new JsonArray().add("reservations:write")));
    assertEquals(100_000L, new JsonObject(next.body()).getJsonObject("budget").getLong("monthly_cap"),
        "a new token starts with the default");
    assertEquals(3L, node.sql("SELECT count(*) FROM audit_log WHERE action = 'token.budget.set' AND target IN ('"
        + token.getString("id") + "', '" + new JsonObject(next.body()).getString("id") + "')").iterator().next()
        .getLong(0), "set at creation, edited, and the new token's from the default");
    assertEquals(1L, node.sql("SELECT count(*) FROM audit_log WHERE action = 'account.default_budget.set'"
        + " AND after->>'monthly_cap' = '100000'").iterator().next().getLong(0));
    assertEquals(List.of(), browser.consoleErrors());
  }

  /** A checkout reservation made with the token: held, so it counts as spent. Its quoted total. */
  private static long hold(String token) {
    HttpResponse<String> held = node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/reservations")))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .header("Idempotency-Key", UUID.randomUUID().toString())
        .POST(HttpRequest.BodyPublishers.ofString(ApiClient.reservationRequest(OFFER, 1,
            Instant.now().plus(20, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS), 1, "checkout").encode())));
    assertEquals(201, held.statusCode(), held.body());
    return new JsonObject(held.body()).getJsonObject("price").getJsonObject("total").getLong("amount");
  }

  private static void signIn(WebDriverWait wait, String login) {
    browser.driver().get(node.url("/signin?return_to=/account"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("login"))).sendKeys(login);
    browser.driver().findElement(By.cssSelector("button[name='decision'][value='approve']")).click();
    wait.until(ExpectedConditions.urlMatches(".*/account$"));
  }

  private static void screenshot(String name) throws Exception {
    Path file = Path.of("target", "screenshots", name);
    Files.createDirectories(file.getParent());
    Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
