package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestBookings;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** After payment: start, run, extend, cancel with refunds, end; and every move the state machine refuses. */
@GatewayTest(settings = {
    "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200",
    "GATEWAY_RESERVATIONS_SANDBOX_INSTANCE_READY_MS=300"})
class ReservationLifecycleTest {
  private static final Instant LATER = Instant.now().plus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static TestGateway node;
  private static ApiClient alice;
  private static ApiClient bob;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    alice = ApiClient.signIn(node, "alice");
    bob = ApiClient.signIn(node, "bob");
    alice.saveCard("4242424242424242");
  }

  @org.junit.jupiter.api.AfterEach
  void theLedgerChecksOut() {
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void aSavedCardReservationStartingNowIsConfirmedAtOnceThenRunsWithAnSshCommand() {
    JsonObject created = alice.reserve("off_osl_5090_01", 1, null, 2, "saved_card");
    assertTrue(java.util.Set.of("confirmed", "provisioning", "running").contains(created.getString("status")),
        "charged synchronously (the scheduler may already have started it): " + created.getString("status"));
    assertEquals("succeeded", created.getJsonObject("payment").getString("status"));

    JsonObject running = alice.awaitStatus(created.getString("id"), "running");
    String command = running.getJsonObject("ssh").getString("command");
    assertTrue(command.matches("ssh -p \\d+ rsv_[0-9a-f]{16}@host-osl-5090-01\\.sandbox-hosts\\.invalid"), command);
    assertEquals(java.util.List.of("pending_payment", "confirmed", "provisioning", "running"),
        running.getJsonArray("events").stream().map(e -> ((JsonObject) e).getString("to")).toList());
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void cancellingARunningReservationRefundsTheUnusedWholeHoursShownBeforehand() {
    JsonObject created = alice.reserve("off_osl_4090_01", 1, null, 3, "saved_card");
    String id = created.getString("id");
    long total = created.getJsonObject("price").getJsonObject("total").getLong("amount");
    JsonObject running = alice.awaitStatus(id, "running");
    long shown = running.getJsonObject("cancellation").getJsonObject("refund").getLong("amount");
    long unusedValue = total * 2 / 3;
    assertEquals(unusedValue - unusedValue * 1000 / 10_000, shown, "2 whole hours left, minus the 10 % fee");

    HttpResponse<String> cancelled = alice.post("/api/v1/reservations/" + id + "/cancel", null);
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    JsonObject after = new JsonObject(cancelled.body());
    assertEquals("cancelled", after.getString("status"));
    JsonObject refund = after.getJsonObject("payment").getJsonArray("refunds").getJsonObject(0);
    assertEquals(shown, refund.getJsonObject("amount").getLong("amount"));
    assertEquals("cancellation", refund.getString("reason"));
    assertEquals("succeeded", refund.getString("status"));
    assertEquals(shown, after.getJsonObject("payment").getJsonObject("amount_refunded").getLong("amount"));
    assertEquals(1L, count("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'refund'"
        + " AND data -> 'metadata' ->> 'refund_id' = '" + refund.getString("id") + "'"), "Stripe saw one refund");
    assertEquals(0L, count("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + id + "'"));
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void aHostFailureFailsTheReservationAndCreditsTheHoursNotDelivered() {
    JsonObject created = alice.reserve("off_fra_a100_01", 1, null, 2, "saved_card");
    String id = created.getString("id");
    long total = created.getJsonObject("price").getJsonObject("total").getLong("amount");
    alice.awaitStatus(id, "running");
    HttpResponse<String> failed = node.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
            node.url("/sandbox/hosts/_test/instances/" + id + "/fail")))
        .header("Authorization", "Bearer " + node.gateway().sandboxFaultControlKey())
        .POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
    assertEquals(200, failed.statusCode(), failed.body());
    JsonObject after = alice.await(id, r -> !r.getJsonObject("payment").getJsonArray("refunds").isEmpty()
        && "succeeded".equals(r.getJsonObject("payment").getJsonArray("refunds").getJsonObject(0).getString("status")),
        "was credited");
    assertEquals("failed", after.getString("status"));
    JsonObject credit = after.getJsonObject("payment").getJsonArray("refunds").getJsonObject(0);
    assertEquals("downtime_credit", credit.getString("reason"));
    assertEquals(total, credit.getJsonObject("amount").getLong("amount"), "both begun hours were lost");
    assertEquals(0L, count("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + id + "'"));
    assertEquals(409, alice.post("/api/v1/reservations/" + id + "/cancel", null).statusCode(), "failed is final");
    assertEquals(409, alice.post("/api/v1/reservations/" + id + "/extend",
        new JsonObject().put("hours", 1).put("payment", "saved_card")).statusCode());
  }

  @Test
  void cancellingBeforeTheStartRefundsEverything() {
    JsonObject created = alice.reserve("off_fra_a100_01", 2, LATER, 2, "saved_card");
    long total = created.getJsonObject("price").getJsonObject("total").getLong("amount");
    assertEquals(total, created.getJsonObject("cancellation").getJsonObject("refund").getLong("amount"));
    JsonObject after = new JsonObject(alice.post("/api/v1/reservations/" + created.getString("id") + "/cancel", null)
        .body());
    assertEquals(total, after.getJsonObject("payment").getJsonObject("amount_refunded").getLong("amount"));
    assertEquals("refunded", node.sql("SELECT status FROM payments WHERE reservation_id = '" + created.getString("id")
        + "'").iterator().next().getString(0));
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void extendingAddsHoursOnTheSameGpusAndMovesTheEndOncePaid() {
    JsonObject created = alice.reserve("off_fra_l40s_01", 1, LATER.plus(Duration.ofHours(30)), 2, "saved_card");
    String id = created.getString("id");
    Instant end = Instant.parse(created.getString("end"));

    HttpResponse<String> bySavedCard = alice.post("/api/v1/reservations/" + id + "/extend",
        new JsonObject().put("hours", 3).put("payment", "saved_card"));
    assertEquals(201, bySavedCard.statusCode(), bySavedCard.body());
    JsonObject extended = new JsonObject(bySavedCard.body());
    assertEquals(end.plus(Duration.ofHours(3)).toString(), extended.getString("end"));
    assertEquals(5, extended.getInteger("hours"));
    assertEquals("confirmed", extended.getJsonArray("extensions").getJsonObject(0).getString("status"));
    assertEquals(created.getJsonArray("gpu_indexes"), extended.getJsonArray("gpu_indexes"), "the same GPUs");

    HttpResponse<String> byCheckout = alice.post("/api/v1/reservations/" + id + "/extend",
        new JsonObject().put("hours", 1).put("payment", "checkout"));
    assertEquals(201, byCheckout.statusCode(), byCheckout.body());
    JsonObject pending = new JsonObject(byCheckout.body()).getJsonArray("extensions").getJsonObject(1);
    assertEquals("pending_payment", pending.getString("status"));
    assertEquals(5, new JsonObject(byCheckout.body()).getInteger("hours"), "the end moves only once paid");
    assertEquals(200, ApiClient.completeCheckout(node, ApiClient.sessionOf(pending.getString("checkout_url")),
        "4242424242424242").statusCode());
    JsonObject paid = alice.await(id, r -> r.getInteger("hours") == 6, "grew to 6 hours");
    assertEquals("confirmed", paid.getJsonArray("extensions").getJsonObject(1).getString("status"));
    assertEquals(3L, count("SELECT count(*) FROM ledger_transactions t JOIN payments p ON p.payment_intent_id = t.ref"
        + " WHERE p.reservation_id = '" + id + "'"), "one charge each: reservation and two extensions");
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void anUnpaidExtensionDoesNotKeepTheWindowOpen() {
    JsonObject created = alice.reserve("off_fra_l40s_01", 1, null, 1, "saved_card");
    String id = created.getString("id");
    alice.awaitStatus(id, "running");
    HttpResponse<String> asked = alice.post("/api/v1/reservations/" + id + "/extend",
        new JsonObject().put("hours", 2).put("payment", "checkout"));
    assertEquals(201, asked.statusCode(), asked.body());
    JsonObject extension = new JsonObject(asked.body()).getJsonArray("extensions").getJsonObject(0);
    assertEquals("pending_payment", extension.getString("status"));

    // an hour passes: the window (and the extension's, right after it) moves into the past, as time would
    node.sql("UPDATE reservations SET period = tstzrange(lower(period) - interval '1 hour', upper(period)"
        + " - interval '1 hour') WHERE id = '" + id + "'");
    node.sql("UPDATE reservation_extensions SET period = tstzrange(lower(period) - interval '1 hour', upper(period)"
        + " - interval '1 hour') WHERE reservation_id = '" + id + "'");
    node.sql("UPDATE reservation_gpus SET period = tstzrange(lower(period) - interval '1 hour', upper(period)"
        + " - interval '1 hour') WHERE reservation_id = '" + id + "'");
    JsonObject ended = alice.awaitStatus(id, "completed");
    assertEquals(1, ended.getInteger("hours"), "not extended: the extension was never paid");
    assertEquals("cancelled", ended.getJsonArray("extensions").getJsonObject(0).getString("status"));
    assertEquals(0L, count("SELECT count(*) FROM reservation_gpus WHERE active AND extension_id IS NOT NULL"
        + " AND reservation_id = '" + id + "'"), "the extension's GPUs are free again");
    assertEquals("canceled", node.sql("SELECT status FROM payments WHERE extension_id = '" + extension.getString("id")
        + "'").iterator().next().getString(0));
    // the checkout is closed after the window's transaction commits (a Stripe call never holds its locks)
    String session = ApiClient.sessionOf(extension.getString("checkout_url"));
    Eventually.eventually("the extension's checkout was expired", () -> new JsonObject(node.send(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.url("/sandbox/stripe/v1/checkout/sessions/"
                + session))).header("Authorization", "Bearer " + node.gateway().config().stripe().secretKey()))
            .body()).getString("status"), "expired"::equals);
    HttpResponse<String> latePay = ApiClient.completeCheckout(node, session, "4242424242424242");
    assertTrue(latePay.statusCode() >= 400, "its checkout is closed: " + latePay.statusCode() + " " + latePay.body());
  }

  @Test
  void extendingIsRefusedWhenTheSameGpusAreTakenAfterTheEnd() {
    Instant start = LATER.plus(Duration.ofHours(60));
    JsonObject created = alice.reserve("off_nyc_h200_01", 8, start, 2, "saved_card");
    TestBookings.book(node, "host_nyc_h200_01", 8, start.plus(Duration.ofHours(2)), start.plus(Duration.ofHours(9)));
    HttpResponse<String> refused = alice.post("/api/v1/reservations/" + created.getString("id") + "/extend",
        new JsonObject().put("hours", 1).put("payment", "saved_card"));
    assertEquals(409, refused.statusCode(), refused.body());
    assertEquals(0L, count("SELECT count(*) FROM reservation_extensions WHERE reservation_id = '"
        + created.getString("id") + "'"));
    assertEquals(1L, count("SELECT count(*) FROM payments WHERE reservation_id = '" + created.getString("id") + "'"),
        "nothing charged");
  }

  @Test
  void endedReservationsCannotBeCancelledOrExtended() {
    JsonObject created = alice.reserve("off_nyc_h100_01", 1, LATER.plus(Duration.ofHours(90)), 1, "saved_card");
    String id = created.getString("id");
    // the window passes: move it into the past, as time would
    node.sql("UPDATE reservations SET period = tstzrange(now() - interval '2 hours', now() - interval '1 hour')"
        + " WHERE id = '" + id + "'");
    alice.awaitStatus(id, "completed");
    assertEquals(409, alice.post("/api/v1/reservations/" + id + "/cancel", null).statusCode());
    assertEquals(409, alice.post("/api/v1/reservations/" + id + "/extend",
        new JsonObject().put("hours", 1).put("payment", "saved_card")).statusCode());

    JsonObject cancelled = alice.reserve("off_nyc_h100_01", 1, LATER.plus(Duration.ofHours(95)), 1, "checkout");
    String cancelledId = cancelled.getString("id");
    assertEquals(409, alice.post("/api/v1/reservations/" + cancelledId + "/extend",
        new JsonObject().put("hours", 1).put("payment", "checkout")).statusCode(), "unpaid holds are not extended");
    assertEquals(200, alice.post("/api/v1/reservations/" + cancelledId + "/cancel", null).statusCode());
    HttpResponse<String> again = alice.post("/api/v1/reservations/" + cancelledId + "/cancel", null);
    assertEquals(409, again.statusCode());
    assertTrue(new JsonObject(again.body()).getString("detail").contains("cancelled"), again.body());
    assertEquals("canceled", node.sql("SELECT status FROM payments WHERE reservation_id = '" + cancelledId + "'")
        .iterator().next().getString(0), "the open checkout is closed");

    String expiredId = alice.reserve("off_nyc_h100_01", 1, LATER.plus(Duration.ofHours(97)), 1, "checkout")
        .getString("id");
    node.sql("UPDATE reservations SET hold_expires_at = now() - interval '1 second' WHERE id = '" + expiredId + "'");
    alice.awaitStatus(expiredId, "expired");
    assertEquals(409, alice.post("/api/v1/reservations/" + expiredId + "/cancel", null).statusCode());
  }

  /**
   * The scheduler's pass fails what never became ready, then completes ended windows: a window
   * ending between the two steps must not complete, so the end step runs here in the transaction
   * that ends the window of a reservation still provisioning, and must leave it to the guarantee.
   */
  @Test
  void aWindowEndingWhileProvisioningIsNeverCompletedButFailedAndRefundedInFull() {
    JsonObject created = alice.reserve("off_nyc_h100_01", 1, LATER.plus(Duration.ofHours(110)), 1, "saved_card");
    String id = created.getString("id");
    long paid = created.getJsonObject("price").getJsonObject("total").getLong("amount");
    List<ReservationRepository.Moved> completed = TestGateway.await(node.gateway().pool().withTransaction(tx -> tx
        .query("UPDATE reservations SET status = 'provisioning', due_at = now() - interval '1 hour',"
            + " period = tstzrange(now() - interval '1 hour', now()) WHERE id = '" + id + "'").execute()
        .compose(v -> ReservationRepository.moveEndedWindows(tx, ReservationStatus.COMPLETED, "window ended"))));
    assertTrue(completed.stream().noneMatch(moved -> moved.id().equals(id)), "not completed: " + completed);

    JsonObject failed = alice.await(id, r -> "failed".equals(r.getString("status"))
        && r.getJsonObject("payment").getJsonObject("amount_refunded").getLong("amount") == paid,
        "failed, everything refunded");
    assertEquals("never_ready", failed.getJsonArray("credits").getJsonObject(0).getString("kind"));
    assertTrue(failed.getJsonArray("events").stream().noneMatch(e -> "completed".equals(((JsonObject) e).getString("to"))),
        failed.getJsonArray("events").encode());
  }

  @Test
  void othersCannotReadCancelOrExtendAReservation() {
    JsonObject created = alice.reserve("off_nyc_h100_01", 1, LATER.plus(Duration.ofHours(100)), 1, "checkout");
    String path = "/api/v1/reservations/" + created.getString("id");
    assertEquals(404, bob.get(path).statusCode());
    assertEquals(404, bob.post(path + "/cancel", null).statusCode());
    assertEquals(404, bob.post(path + "/extend", new JsonObject().put("hours", 1).put("payment", "checkout"))
        .statusCode());
    assertEquals("pending_payment", alice.json(path).getString("status"), "untouched");
    JsonArray bobs = bob.json("/api/v1/reservations").getJsonArray("data");
    assertTrue(bobs.stream().noneMatch(r -> ((JsonObject) r).getString("id").equals(created.getString("id"))));
  }

  @Test
  void aReservationNeedsEitherAQuoteOrAnOfferWindowNotBoth() {
    JsonObject both = ApiClient.reservationRequest("off_nyc_h100_01", 1, LATER, 1, "checkout").put("quote_id", "quo_x");
    HttpResponse<String> refused = alice.post("/api/v1/reservations", both);
    assertEquals(400, refused.statusCode(), refused.body());
    JsonObject neither = new JsonObject().put("ssh_public_key", ApiClient.SSH_KEY).put("payment", "checkout");
    assertEquals(400, alice.post("/api/v1/reservations", neither).statusCode());
    HttpResponse<String> unknownOffer = alice.post("/api/v1/reservations",
        ApiClient.reservationRequest("off_nowhere", 1, LATER, 1, "checkout"));
    assertEquals(400, unknownOffer.statusCode(), unknownOffer.body());
    assertTrue(unknownOffer.body().contains("#/offer_id"), unknownOffer.body());
    HttpResponse<String> tooSmall = alice.post("/api/v1/reservations",
        ApiClient.reservationRequest("off_osl_4090_01", 1, LATER, 1, "checkout"));
    assertEquals(400, tooSmall.statusCode(), "USD 0.36 is below Stripe's smallest card charge: " + tooSmall.body());
    assertTrue(tooSmall.body().contains("smallest card payment"), tooSmall.body());
  }

  private static long count(String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }
}
