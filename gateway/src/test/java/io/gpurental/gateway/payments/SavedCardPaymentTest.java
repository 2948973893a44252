package io.gpurental.gateway.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** API clients pay with the card saved once in a browser: charged off-session, answered synchronously. */
@GatewayTest
class SavedCardPaymentTest {
  private static final Instant START = Instant.now().plus(5, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @org.junit.jupiter.api.AfterEach
  void theLedgerChecksOut() {
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void aSavedCardIsListedUsedAndRemoved() {
    ApiClient carol = ApiClient.signIn(node, "carol");
    HttpResponse<String> noCard = carol.post("/api/v1/reservations",
        ApiClient.reservationRequest("off_nyc_h100_01", 1, START, 2, "saved_card"));
    assertEquals(400, noCard.statusCode(), noCard.body());
    assertTrue(noCard.body().contains("no saved card"), noCard.body());

    JsonObject card = carol.saveCard("4242424242424242");
    assertEquals("visa", card.getString("brand"));
    assertEquals("4242", card.getString("last4"));

    JsonObject reservation = carol.reserve("off_nyc_h100_01", 1, START, 2, "saved_card");
    assertEquals("confirmed", reservation.getString("status"), "paid before the answer");
    assertEquals("succeeded", reservation.getJsonObject("payment").getString("status"));
    JsonObject payment = carol.json("/api/v1/payments").getJsonArray("data").getJsonObject(0);
    assertEquals(reservation.getString("id"), payment.getString("reservation_id"));
    assertEquals(reservation.getJsonObject("price").getJsonObject("total").getLong("amount"), payment.getLong("amount"));
    assertEquals("saved_card", payment.getString("method"));
    assertNotNull(payment.getJsonObject("receipt").getJsonArray("items"));
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());

    assertEquals(204, carol.delete("/api/v1/payment-methods/" + card.getString("id")).statusCode());
    assertTrue(carol.json("/api/v1/payment-methods").getJsonArray("data").isEmpty());
    assertEquals(404, carol.delete("/api/v1/payment-methods/" + card.getString("id")).statusCode());
  }

  @Test
  void aDeclineAnswers402WithTheDeclineCodeAndReleasesTheHold() {
    ApiClient dave = ApiClient.signIn(node, "dave");
    dave.saveCard("4000000000000341"); // attaches fine, every charge is declined
    JsonObject request = ApiClient.reservationRequest("off_osl_4090_01", 1, START, 3, "saved_card");
    HttpResponse<String> declined = dave.post("/api/v1/reservations", request, "decline-key");
    assertEquals(402, declined.statusCode(), declined.body());
    HttpResponse<String> replayed = dave.post("/api/v1/reservations", request, "decline-key");
    assertEquals(402, replayed.statusCode(), replayed.body());
    assertEquals(declined.body(), replayed.body(), "a retry replays the answer the error path rendered, request_id too");
    assertTrue(new JsonObject(declined.body()).getString("request_id") != null);
    assertTrue(declined.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
    JsonObject problem = new JsonObject(declined.body());
    assertEquals("generic_decline", problem.getString("decline_code"));
    String id = problem.getString("reservation_id");
    assertEquals("cancelled", dave.json("/api/v1/reservations/" + id).getString("status"));
    assertEquals(0L, node.sql("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + id + "'")
        .iterator().next().getLong(0), "the GPUs are free again");
    assertEquals(0L, node.sql("SELECT count(*) FROM ledger_transactions t JOIN payments p ON p.payment_intent_id = t.ref"
        + " WHERE p.reservation_id = '" + id + "'").iterator().next().getLong(0), "nothing charged");
  }

  @Test
  void aCardNeedingAuthenticationAnswers402WithACheckoutForTheStillHeldGpus() {
    ApiClient erin = ApiClient.signIn(node, "erin");
    erin.saveCard("4000002500003155");
    HttpResponse<String> needsAuth = erin.post("/api/v1/reservations",
        ApiClient.reservationRequest("off_fra_a100_01", 1, START, 1, "saved_card"));
    assertEquals(402, needsAuth.statusCode(), needsAuth.body());
    JsonObject problem = new JsonObject(needsAuth.body());
    String id = problem.getString("reservation_id");
    assertEquals("authentication_required", problem.getString("code"));
    assertEquals("pending_payment", erin.json("/api/v1/reservations/" + id).getString("status"), "still held");

    assertEquals(200, ApiClient.completeCheckout(node, ApiClient.sessionOf(problem.getString("checkout_url")),
        "4242424242424242").statusCode());
    erin.awaitStatus(id, "confirmed");
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void retryingWithTheSameKeyChargesOnceAndAnswersTheSame() throws Exception {
    ApiClient frank = ApiClient.signIn(node, "frank");
    frank.saveCard("4242424242424242");
    String key = UUID.randomUUID().toString();
    JsonObject request = ApiClient.reservationRequest("off_fra_l40s_01", 2, START.plus(Duration.ofHours(3)), 2,
        "saved_card");
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(5);
    java.util.List<HttpResponse<String>> answers = new java.util.ArrayList<>();
    try {
      java.util.List<java.util.concurrent.Future<HttpResponse<String>>> sent = new java.util.ArrayList<>();
      for (int i = 0; i < 5; i++) {
        sent.add(pool.submit(() -> frank.post("/api/v1/reservations", request, key)));
      }
      for (var answer : sent) {
        answers.add(answer.get());
      }
    } finally {
      pool.shutdown();
    }
    HttpResponse<String> first = answers.get(0);
    assertEquals(201, first.statusCode(), first.body());
    for (HttpResponse<String> other : answers) {
      assertEquals(201, other.statusCode(), other.body());
      assertEquals(new JsonObject(first.body()).getString("id"), new JsonObject(other.body()).getString("id"));
    }
    HttpResponse<String> later = frank.post("/api/v1/reservations", request, key);
    assertEquals(201, later.statusCode());
    String id = new JsonObject(first.body()).getString("id");
    assertEquals(id, new JsonObject(later.body()).getString("id"));
    assertEquals(1L, node.sql("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'payment_intent'"
        + " AND data -> 'metadata' ->> 'reservation_id' = '" + id + "'").iterator().next().getLong(0));
  }

  @Test
  void aNewAccountsFirstCheckoutsAtTheSameMomentShareOneStripeCustomer() throws Exception {
    ApiClient henry = ApiClient.signIn(node, "henry");
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      java.util.List<java.util.concurrent.Future<HttpResponse<String>>> answers = new java.util.ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Instant start = START.plus(Duration.ofHours(20 + i));
        answers.add(pool.submit(() -> henry.post("/api/v1/reservations",
            ApiClient.reservationRequest("off_nyc_h200_01", 1, start, 1, "checkout"))));
      }
      for (var answer : answers) {
        assertEquals(201, answer.get().statusCode(), answer.get().body());
      }
    } finally {
      pool.shutdown();
    }
    String account = henry.json("/api/v1/me").getString("id");
    assertEquals(1L, node.sql("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'customer'"
        + " AND data -> 'metadata' ->> 'account_id' = '" + account + "'").iterator().next().getLong(0));
  }

  @Test
  void operatorsCheckTheLedgerAndSeeEveryonesPaymentsRentersOnlyTheirOwn() {
    ApiClient ivy = ApiClient.signIn(node, "ivy");
    ivy.saveCard("4242424242424242");
    JsonObject paid = ivy.reserve("off_osl_5090_01", 1, START.plus(Duration.ofHours(30)), 1, "saved_card");
    ApiClient operator = ApiClient.signIn(node, "operator");

    JsonObject check = operator.json("/api/v1/operator/ledger-check");
    assertTrue(check.getBoolean("ok"), check.encode());
    assertTrue(check.getLong("transactions") >= 1);
    // Stripe's balance holds the charges net of its card fees (booked to expense:card_fees)
    long clearingGrossOfFees = check.getJsonArray("balances").stream().map(b -> (JsonObject) b)
        .filter(b -> List.of("asset:stripe_clearing", "expense:card_fees").contains(b.getString("account")))
        .mapToLong(b -> b.getLong("amount")).sum();
    assertTrue(clearingGrossOfFees >= paid.getJsonObject("price").getJsonObject("total").getLong("amount"),
        check.encode());
    assertEquals(403, ivy.get("/api/v1/operator/ledger-check").statusCode());

    assertTrue(operator.json("/api/v1/payments?limit=100").getJsonArray("data").stream()
        .anyMatch(p -> paid.getString("id").equals(((JsonObject) p).getString("reservation_id"))));
    assertTrue(ApiClient.signIn(node, "judy").json("/api/v1/payments").getJsonArray("data").isEmpty());
  }
}
