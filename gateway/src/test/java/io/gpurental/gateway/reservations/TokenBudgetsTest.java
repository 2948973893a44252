package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.agents.McpClients;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.modelcontextprotocol.client.McpSyncClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Budgets on API tokens: what a token's reservations and extensions may spend, enforced in
 * PostgreSQL under a per-token lock, given back by refunds, and reported to the owner and to the
 * agent holding the token.
 */
@GatewayTest
class TokenBudgetsTest {
  private static final String OFFER = "off_fra_l40s_01";
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final TestGateway node;

  TokenBudgetsTest(TestGateway node) {
    this.node = node;
  }

  /** A person signed in, with one token they made. */
  private record Owner(WebSession browser, String tokenId, String token) {}

  @AfterEach
  void theLedgerChecksOut() {
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void twentyRacingReservationsAgainstACapForThreeLetExactlyThreeThrough() {
    Owner owner = owner("budget-bea");
    Instant first = Instant.now().plus(6, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
    long price = quote(owner, first).getJsonObject("total").getLong("amount");
    setBudget(owner, new JsonObject().put("total_cap", 3 * price + price / 2));

    List<CompletableFuture<HttpResponse<String>>> racing = IntStream.range(0, 20)
        .mapToObj(i -> reserveAsync(owner, first.plus(i, ChronoUnit.HOURS), 1)).toList();
    List<HttpResponse<String>> answers = racing.stream().map(CompletableFuture::join).toList();

    assertEquals(3, answers.stream().filter(a -> a.statusCode() == 201).count(), statuses(answers));
    List<HttpResponse<String>> refused = answers.stream().filter(a -> a.statusCode() != 201).toList();
    assertEquals(17, refused.size());
    for (HttpResponse<String> answer : refused) {
      assertEquals(403, answer.statusCode(), answer.body());
      JsonObject problem = new JsonObject(answer.body());
      assertEquals("urn:problem-type:gpu-rental:budget_exceeded", problem.getString("type"));
      assertTrue(problem.getJsonObject("remaining").getLong("total") < price, answer.body());
    }
    assertEquals(3L, count("SELECT count(*) FROM reservations WHERE token_id = '" + owner.tokenId() + "'"));
    JsonObject report = new JsonObject(owner.browser().get(node.url("/api/v1/tokens/" + owner.tokenId())).body());
    assertEquals(3 * price, report.getJsonObject("budget").getJsonObject("spent").getLong("total"));
    assertEquals(price / 2, report.getJsonObject("budget").getJsonObject("remaining").getLong("total"));
  }

  @Test
  void aRefundGivesBudgetBackAndTheAgentSeesItsBudget() {
    Owner owner = owner("budget-ben");
    Instant start = Instant.now().plus(8, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
    long price = quote(owner, start).getJsonObject("total").getLong("amount");
    setBudget(owner, new JsonObject().put("daily_cap", price).put("monthly_cap", 10 * price).put("max_hours", 4));

    HttpResponse<String> booked = reserveAsync(owner, start, 1).join();
    assertEquals(201, booked.statusCode(), booked.body());
    JsonObject reservation = new JsonObject(booked.body());
    assertEquals(200, ApiClient.completeCheckout(node, ApiClient.sessionOf(reservation.getJsonObject("payment")
        .getString("checkout_url")), "4242424242424242").statusCode());
    assertEquals(403, reserveAsync(owner, start.plus(2, ChronoUnit.HOURS), 1).join().statusCode(),
        "today's cap is spent");
    assertEquals(403, reserveAsync(owner, start.plus(3, ChronoUnit.DAYS), 5).join().statusCode(), "longer than 4 h");

    String id = reservation.getString("id");
    Eventually.eventually("the checkout was paid", () -> status(owner, id),
        "confirmed"::equals);
    HttpResponse<String> cancelled = send(owner, HttpRequest.newBuilder(URI.create(node.url("/api/v1/reservations/"
        + id + "/cancel"))).POST(HttpRequest.BodyPublishers.noBody()).header("Idempotency-Key", UUID.randomUUID().toString()));
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    long kept = Eventually.eventually("the refund went through", () -> count(
        "SELECT amount - amount_refunded FROM payments WHERE reservation_id = '" + id + "'"), left -> left < price);

    try (McpSyncClient agent = McpClients.sdk(node, owner.token())) {
      agent.initialize();
      JsonObject budget = McpClients.call(agent, "get_budget", new JsonObject()).getJsonObject("budget");
      assertEquals(kept, budget.getJsonObject("spent").getLong("today"), "the refund gave budget back");
      assertEquals(price - kept, budget.getJsonObject("remaining").getLong("today"));
      assertEquals(4, budget.getInteger("max_hours"));
    }
    assertEquals(1L, count("SELECT count(*) FROM audit_log WHERE action = 'token.budget.set' AND target = '"
        + owner.tokenId() + "'"), "the budget change is audited");
  }

  @Test
  void aboveTheThresholdTheOwnerApprovesOrDeclinesAndATokenCannot() {
    ApiClient.signIn(node, "budget-abe").saveCard("4242424242424242");
    Owner owner = owner("budget-abe");
    Instant start = Instant.now().plus(12, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
    long price = quote(owner, start).getJsonObject("total").getLong("amount");
    setBudget(owner, new JsonObject().put("approval_threshold", price - 1).put("total_cap", 10 * price));

    JsonObject waiting = created(reserveAsync(owner, start, 1, "saved_card").join());
    String approvedId = waiting.getString("id");
    assertEquals("awaiting_approval", waiting.getString("status"), waiting.encode());
    assertEquals(0L, paid(approvedId), "nothing is charged before the owner approves");
    HttpResponse<String> byToken = send(owner, HttpRequest.newBuilder(URI.create(node.url("/api/v1/reservations/"
        + approvedId + "/approve"))).POST(HttpRequest.BodyPublishers.noBody()));
    assertTrue(byToken.statusCode() == 401 || byToken.statusCode() == 403, byToken.body());
    assertEquals("awaiting_approval", status(owner, approvedId), "a token never approves its own spending");

    HttpResponse<String> approved = owner.browser().write("POST",
        node.url("/api/v1/reservations/" + approvedId + "/approve"), null);
    assertEquals(200, approved.statusCode(), approved.body());
    assertEquals("confirmed", new JsonObject(approved.body()).getString("status"), approved.body());
    assertEquals(price, paid(approvedId), "approved: the saved card paid the quote");

    String declinedId = created(reserveAsync(owner, start.plus(3, ChronoUnit.HOURS), 1, "saved_card").join())
        .getString("id");
    HttpResponse<String> declined = owner.browser().write("POST",
        node.url("/api/v1/reservations/" + declinedId + "/decline"), null);
    assertEquals(200, declined.statusCode(), declined.body());
    assertEquals("cancelled", new JsonObject(declined.body()).getString("status"));
    assertEquals(0L, paid(declinedId), "declined: nothing charged");
    assertEquals(0L, count("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + declinedId
        + "'"), "declined: the GPUs are free again");
    assertEquals(409, owner.browser().write("POST", node.url("/api/v1/reservations/" + approvedId + "/decline"), null)
        .statusCode(), "only a reservation awaiting approval is declined");
    assertEquals(2L, count("SELECT count(*) FROM audit_log WHERE action IN ('reservation.approved',"
        + " 'reservation.declined') AND target IN ('" + approvedId + "', '" + declinedId + "')"));

    String lapsingId = created(reserveAsync(owner, start.plus(9, ChronoUnit.HOURS), 1, "saved_card").join())
        .getString("id");
    node.sql("UPDATE reservations SET hold_expires_at = now() - interval '1 second' WHERE id = '" + lapsingId + "'");
    TestGateway.await(node.gateway().jobs().runNow(ReservationsFeature.EXPIRE_HOLDS));
    assertEquals("expired", status(owner, lapsingId), "an unanswered request lapses with its hold");
    assertEquals(0L, count("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + lapsingId
        + "'"));
    assertEquals(price, spentTotal(owner), "only the approved reservation is spent");

    try (McpSyncClient agent = McpClients.sdk(node, owner.token())) {
      agent.initialize();
      JsonObject booked = McpClients.call(agent, "create_reservation", new JsonObject().put("offer_id", OFFER)
          .put("gpu_count", 1).put("hours", 1).put("start", start.plus(6, ChronoUnit.HOURS).toString())
          .put("ssh_public_key", ApiClient.SSH_KEY));
      assertEquals("awaiting_approval", booked.getJsonObject("reservation").getString("status"));
      assertTrue(booked.getString("approval_url").endsWith("/reservations/"
          + booked.getJsonObject("reservation").getString("id")), booked.encode());
      assertNull(booked.getValue("checkout_url"));
    }
  }

  /**
   * Issue 33: with only an approval threshold (or a longest reservation), an agent booked 1 h under
   * it, then extended again and again; each extension was checked alone. Now the reservation's
   * whole total and length count, extensions included.
   */
  @Test
  void extensionsCountTowardsTheThresholdAndTheLongestReservation() {
    ApiClient.signIn(node, "budget-eve").saveCard("4242424242424242");
    Owner owner = owner("budget-eve");
    Instant start = Instant.now().plus(14, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
    long price = quote(owner, start).getJsonObject("total").getLong("amount");
    setBudget(owner, new JsonObject().put("approval_threshold", 2 * price + price / 2));

    String id = confirmed(owner, created(reserveAsync(owner, start, 1, "saved_card").join()).getString("id"));
    assertEquals(201, extend(owner, id).statusCode(), "2 h in all: under the threshold");
    Eventually.eventually("the extension paid", () -> count("SELECT count(*) FROM reservation_extensions"
        + " WHERE status = 'confirmed' AND reservation_id = '" + id + "'"), n -> n == 1);
    HttpResponse<String> third = extend(owner, id);
    assertEquals(403, third.statusCode(), third.body());
    assertTrue(third.body().contains("approval threshold"), third.body());
    assertEquals(2 * price, spentTotal(owner), "the refused extension spent nothing");

    Owner shortOnly = owner("budget-eli");
    ApiClient.signIn(node, "budget-eli").saveCard("4242424242424242");
    setBudget(shortOnly, new JsonObject().put("max_hours", 2));
    String shortId = confirmed(shortOnly, created(reserveAsync(shortOnly, start.plus(5, ChronoUnit.HOURS), 1,
        "saved_card").join()).getString("id"));
    assertEquals(201, extend(shortOnly, shortId).statusCode(), "2 h: the longest allowed");
    Eventually.eventually("the extension paid", () -> count("SELECT count(*) FROM reservation_extensions"
        + " WHERE status = 'confirmed' AND reservation_id = '" + shortId + "'"), n -> n == 1);
    HttpResponse<String> tooLong = extend(shortOnly, shortId);
    assertEquals(403, tooLong.statusCode(), tooLong.body());
    assertTrue(tooLong.body().contains("3 h, longer than the token's 2 h"), tooLong.body());
  }

  private String confirmed(Owner owner, String id) {
    Eventually.eventually(id + " confirmed", () -> status(owner, id), "confirmed"::equals);
    return id;
  }

  private HttpResponse<String> extend(Owner owner, String id) {
    return send(owner, HttpRequest.newBuilder(URI.create(node.url("/api/v1/reservations/" + id + "/extend")))
        .header("Content-Type", "application/json").header("Idempotency-Key", UUID.randomUUID().toString())
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("hours", 1).put("payment", "saved_card")
            .encode())));
  }

  @Test
  void onlyAPersonSetsABudgetAndATokenWithoutOneIsNotLimited() {
    Owner owner = owner("budget-bo");
    HttpResponse<String> byToken = send(owner, HttpRequest.newBuilder(URI.create(node.url("/api/v1/tokens/"
        + owner.tokenId() + "/budget"))).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(new JsonObject().put("total_cap", 1_000_000_000L).encode())));
    assertTrue(byToken.statusCode() == 401 || byToken.statusCode() == 403, byToken.body());
    JsonObject report = new JsonObject(owner.browser().get(node.url("/api/v1/tokens/" + owner.tokenId())).body());
    assertNull(report.getValue("budget"), report.encode());
    HttpResponse<String> booked = reserveAsync(owner, Instant.now().plus(10, ChronoUnit.DAYS)
        .truncatedTo(ChronoUnit.HOURS), 1).join();
    assertEquals(201, booked.statusCode(), booked.body());
    assertEquals(404, owner.browser().write("PUT", node.url("/api/v1/tokens/tok_unknown1/budget"),
        new JsonObject().put("total_cap", 1)).statusCode());
  }

  private Owner owner(String login) {
    WebSession browser = new WebSession();
    browser.signIn(node, "github", login);
    HttpResponse<String> created = browser.write("POST", node.url("/api/v1/tokens"), new JsonObject()
        .put("name", "agent").put("scopes", new JsonArray().add("catalog:read").add("reservations:write")));
    assertEquals(201, created.statusCode(), created.body());
    JsonObject token = new JsonObject(created.body());
    return new Owner(browser, token.getString("id"), token.getString("token"));
  }

  private void setBudget(Owner owner, JsonObject budget) {
    HttpResponse<String> set = owner.browser().write("PUT", node.url("/api/v1/tokens/" + owner.tokenId() + "/budget"),
        budget);
    assertEquals(200, set.statusCode(), set.body());
  }

  private JsonObject quote(Owner owner, Instant start) {
    HttpResponse<String> quoted = send(owner, HttpRequest.newBuilder(URI.create(node.url("/api/v1/quotes")))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(new JsonObject()
            .put("offer_id", OFFER).put("gpu_count", 1).put("start", start.toString()).put("hours", 1).encode())));
    assertEquals(201, quoted.statusCode(), quoted.body());
    return new JsonObject(quoted.body());
  }

  private CompletableFuture<HttpResponse<String>> reserveAsync(Owner owner, Instant start, int hours) {
    return reserveAsync(owner, start, hours, "checkout");
  }

  private CompletableFuture<HttpResponse<String>> reserveAsync(Owner owner, Instant start, int hours, String payment) {
    JsonObject body = ApiClient.reservationRequest(OFFER, 1, start, hours, payment);
    return HTTP.sendAsync(HttpRequest.newBuilder(URI.create(node.url("/api/v1/reservations")))
        .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + owner.token())
        .header("Content-Type", "application/json").header("Idempotency-Key", UUID.randomUUID().toString())
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonObject created(HttpResponse<String> answer) {
    assertEquals(201, answer.statusCode(), answer.body());
    return new JsonObject(answer.body());
  }

  private long spentTotal(Owner owner) {
    return new JsonObject(owner.browser().get(node.url("/api/v1/tokens/" + owner.tokenId())).body())
        .getJsonObject("budget").getJsonObject("spent").getLong("total");
  }

  private long paid(String reservationId) {
    return count("SELECT coalesce(sum(amount), 0) FROM payments WHERE status = 'succeeded' AND reservation_id = '"
        + reservationId + "'");
  }

  private String status(Owner owner, String id) {
    return new JsonObject(send(owner, HttpRequest.newBuilder(URI.create(node.url("/api/v1/reservations/" + id))))
        .body()).getString("status");
  }

  private HttpResponse<String> send(Owner owner, HttpRequest.Builder request) {
    return node.send(request.header("Authorization", "Bearer " + owner.token()));
  }

  private long count(String query) {
    return node.sql(query).iterator().next().getLong(0);
  }

  private static String statuses(List<HttpResponse<String>> answers) {
    return answers.stream().map(a -> a.statusCode() + " " + a.body()).toList().toString();
  }
}
