package io.gpurental.gateway.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 25: a new account's first payment setup, made by many requests at once, ends with one
 * Stripe customer that every request uses, and never answers 500. Each round is a new account, and
 * a {@link CustomerInsertGate} makes the requests store the customer at the same moment, so the
 * race is run in every round (the statement and pool-wait limits leave room for the gate).
 */
@GatewayTest(settings = {"GATEWAY_RATE_LIMITS_SIGN_INS_PER_MINUTE=1000", "GATEWAY_DB_STATEMENT_TIMEOUT_MS=20000",
    "GATEWAY_DB_POOL_WAIT_TIMEOUT_MS=20000"})
class FirstPaymentRaceTest {
  private static final int ROUNDS = 20;
  private static final int REQUESTS = 30;
  /** How many of the gateway's customer inserts wait at the gate before it opens (its pool has 16 connections). */
  private static final int AT_THE_GATE = 8;
  private static final String OFFER = "off_fra_a100_01";
  private static final int ALL_GPUS = 4;
  private static final Instant START = Instant.now().plus(9, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static final String SESSIONS = "SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'checkout.session'";
  private static TestGateway node;
  private static ExecutorService threads;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    threads = Executors.newFixedThreadPool(REQUESTS);
  }

  @AfterAll
  static void stop() {
    threads.shutdownNow();
  }

  @Test
  void thirtyFirstReservationsOfANewAccountGiveOneReservationAndOneCustomer() {
    for (int round = 0; round < ROUNDS; round++) {
      String login = "first-reservation-" + round;
      ApiClient renter = ApiClient.signIn(node, login);
      JsonObject request = ApiClient.reservationRequest(OFFER, ALL_GPUS, START.plus(2L * round, ChronoUnit.HOURS), 1,
          "checkout");
      String accountId = accountOf(login);
      long sessionsBefore = count(SESSIONS);
      List<HttpResponse<String>> answers = atOnce(accountId, () -> renter.post("/api/v1/reservations", request));

      String seen = "round " + round + ": " + statuses(answers);
      assertEquals(1, answers.stream().filter(a -> a.statusCode() == 201).count(), seen);
      for (HttpResponse<String> answer : answers) {
        if (answer.statusCode() != 201) {
          assertEquals(409, answer.statusCode(), seen + " " + answer.body());
          assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
              answer.headers().toString());
        }
      }
      String customer = theOneCustomerOf(accountId, seen);
      // a request that came after the winner's hold is refused before it opens a checkout
      assertEquals(count(SESSIONS) - sessionsBefore, count(SESSIONS + " AND data ->> 'customer' = '" + customer + "'"),
          "every checkout this round opened is for the one customer");
    }
  }

  @Test
  void thirtyFirstCardSetupsOfANewAccountShareOneCustomer() {
    for (int round = 0; round < ROUNDS; round++) {
      String login = "first-card-setup-" + round;
      ApiClient renter = ApiClient.signIn(node, login);
      String accountId = accountOf(login);
      List<HttpResponse<String>> answers = atOnce(accountId,
          () -> renter.post("/api/v1/payment-methods/setup", new JsonObject()));

      String seen = "round " + round + ": " + statuses(answers);
      assertEquals(REQUESTS, answers.stream().filter(a -> a.statusCode() == 201).count(), seen);
      String customer = theOneCustomerOf(accountId, seen);
      for (HttpResponse<String> answer : answers) {
        String session = ApiClient.sessionOf(new JsonObject(answer.body()).getString("checkout_url"));
        assertEquals(customer, node.sql("SELECT data ->> 'customer' FROM sandbox_stripe.objects WHERE id = '"
            + session + "'").iterator().next().getString(0), "the setup session " + session + " is for the customer");
      }
    }
  }

  /** The account's one stored customer, after asserting it is the one customer Stripe has for the account. */
  private static String theOneCustomerOf(String accountId, String seen) {
    assertEquals(1, count("SELECT count(*) FROM stripe_customers WHERE account_id = '" + accountId + "'"), seen);
    assertEquals(1, count("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'customer'"
        + " AND data -> 'metadata' ->> 'account_id' = '" + accountId + "'"), "one Stripe customer; " + seen);
    return node.sql("SELECT customer_id FROM stripe_customers WHERE account_id = '" + accountId + "'")
        .iterator().next().getString(0);
  }

  /**
   * Sends {@link #REQUESTS} requests released together, their customer inserts held at the gate
   * until {@link #AT_THE_GATE} wait there, and answers their responses.
   */
  private static List<HttpResponse<String>> atOnce(String accountId, Supplier<HttpResponse<String>> send) {
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < REQUESTS; i++) {
      calls.add(CompletableFuture.supplyAsync(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
        return send.get();
      }, threads));
    }
    try (CustomerInsertGate gate = CustomerInsertGate.shut(node, accountId)) {
      go.countDown();
      gate.openWhenWaiting(AT_THE_GATE);
    }
    return calls.stream().map(CompletableFuture::join).toList();
  }

  /** How many answers had each status, and the body of the first that was neither 201 nor 409. */
  private static String statuses(List<HttpResponse<String>> answers) {
    return answers.stream().collect(Collectors.groupingBy(HttpResponse::statusCode, Collectors.counting()))
        + answers.stream().filter(a -> a.statusCode() != 201 && a.statusCode() != 409).findFirst()
            .map(a -> " first unexpected: " + a.body()).orElse("");
  }

  private static String accountOf(String login) {
    return node.sql("SELECT account_id FROM identities WHERE provider = 'github' AND login = '" + login + "'")
        .iterator().next().getString(0);
  }

  private static long count(String query) {
    return node.sql(query).iterator().next().getLong(0);
  }
}
