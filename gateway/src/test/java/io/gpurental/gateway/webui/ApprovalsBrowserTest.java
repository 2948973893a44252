package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.BrowserTestBase;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Reservations page tells the owner which reservations their agents' tokens made above the
 * budget's approval threshold, and approves (paid by the saved card) or declines (released) them.
 */
class ApprovalsBrowserTest extends BrowserTestBase {
  private static final String OFFER = "off_fra_l40s_01";

  @Test
  void theOwnerApprovesOneAndDeclinesTheOtherOnTheReservationsPage() {
    String login = "approver-" + UUID.randomUUID().toString().substring(0, 8);
    ApiClient.signIn(node, login).saveCard("4242424242424242");
    String token = budgetedToken(login);
    Instant start = Instant.now().plus(15, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
    String first = reserve(token, start);
    String second = reserve(token, start.plus(2, ChronoUnit.HOURS));

    WebDriverWait wait = new WebDriverWait(browser.driver(), java.time.Duration.ofSeconds(30));
    signIn(wait, login);
    browser.driver().get(node.url("/reservations"));
    List<WebElement> waiting = wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#approvals .approval"), 2));
    assertTrue(waiting.stream().allMatch(item -> List.of(first, second).contains(item.getAttribute("data-reservation-id"))));

    approval(wait, first).findElement(By.cssSelector("button.approve")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("approvals-message"), "Approved " + first));
    assertEquals("confirmed", status(first));
    assertTrue(sqlLong("SELECT count(*) FROM payments WHERE status = 'succeeded' AND reservation_id = '" + first + "'") > 0);

    approval(wait, second).findElement(By.cssSelector("button.decline")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("approvals-message"), "Declined " + second));
    assertEquals("cancelled", status(second));
    assertEquals(0L, sqlLong("SELECT count(*) FROM payments WHERE status = 'succeeded' AND reservation_id = '"
        + second + "'"));
    wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#approvals .approval"), 0));
    assertEquals(List.of(), browser.consoleErrors());
  }

  private WebElement approval(WebDriverWait wait, String id) {
    return wait.until(ExpectedConditions.elementToBeClickable(
        By.cssSelector("#approvals .approval[data-reservation-id='" + id + "'] button")))
        .findElement(By.xpath(".."));
  }

  /** A token of {@code login} whose budget wants approval for anything above 0. */
  private static String budgetedToken(String login) {
    WebSession person = new WebSession();
    person.signIn(node, "github", login);
    HttpResponse<String> created = person.write("POST", node.url("/api/v1/tokens"), new JsonObject()
        .put("name", "agent").put("scopes", new JsonArray().add("reservations:write")));
    assertEquals(201, created.statusCode(), created.body());
    JsonObject token = new JsonObject(created.body());
    HttpResponse<String> budget = person.write("PUT", node.url("/api/v1/tokens/" + token.getString("id") + "/budget"),
        new JsonObject().put("approval_threshold", 0));
    assertEquals(200, budget.statusCode(), budget.body());
    return token.getString("token");
  }

  private static String reserve(String token, Instant start) {
    HttpResponse<String> held = node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/reservations")))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .header("Idempotency-Key", UUID.randomUUID().toString())
        .POST(HttpRequest.BodyPublishers.ofString(ApiClient.reservationRequest(OFFER, 1, start, 1, "saved_card")
            .encode())));
    assertEquals(201, held.statusCode(), held.body());
    JsonObject reservation = new JsonObject(held.body());
    assertEquals("awaiting_approval", reservation.getString("status"));
    return reservation.getString("id");
  }

  private static void signIn(WebDriverWait wait, String login) {
    browser.driver().get(node.url("/signin?return_to=/reservations"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("login"))).sendKeys(login);
    browser.driver().findElement(By.cssSelector("button[name='decision'][value='approve']")).click();
    wait.until(ExpectedConditions.urlMatches(".*/reservations$"));
  }

  private static String status(String id) {
    return node.sql("SELECT status FROM reservations WHERE id = '" + id + "'").iterator().next().getString(0);
  }

  private static long sqlLong(String query) {
    return node.sql(query).iterator().next().getLong(0);
  }
}
