package io.gpurental.gateway.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestBookings;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.Lock;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Money that arrives late, webhooks that never arrive, and a crash between Stripe's answer and
 * our commit: each ends with one Stripe object, one ledger transaction and a clean ledger check.
 */
@GatewayTest(settings = {
    "GATEWAY_STRIPE_RECONCILE_INTERVAL_SECONDS=1"})
class PaymentRecoveryTest {
  /** The lock ClusterJobs takes for each run of the job. */
  private static final String RECONCILER_LOCK = "jobs." + PaymentsFeature.RECONCILE;
  private static final Instant START = Instant.now().plus(6, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static TestGateway node;
  private static ApiClient grace;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    grace = ApiClient.signIn(node, "grace");
    grace.saveCard("4242424242424242");
  }

  @AfterEach
  void normalDelivery() {
    ApiClient.webhooks(node, "normal");
    node.sql("DROP TRIGGER IF EXISTS crash_once ON ledger_transactions");
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void aPaymentAfterTheHoldLapsedConfirmsWhenTheGpusAreStillFree() {
    JsonObject reservation = grace.reserve("off_nyc_h200_01", 2, START, 2, "checkout");
    String id = reservation.getString("id");
    lapse(id);
    grace.payByCheckout(reservation, "4242424242424242");
    JsonObject confirmed = grace.awaitStatus(id, "confirmed");
    String cause = confirmed.getJsonArray("events").getJsonObject(confirmed.getJsonArray("events").size() - 1)
        .getString("cause");
    assertTrue(cause.contains("after the hold lapsed"), cause);
    assertEquals(2L, count("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + id + "'"));
  }

  @Test
  void aPaymentAfterTheHoldLapsedIsRefundedWhenTheGpusWereTaken() {
    JsonObject reservation = grace.reserve("off_osl_5090_01", 2, START, 2, "checkout");
    String id = reservation.getString("id");
    lapse(id);
    TestBookings.book(node, "host_osl_5090_01", 2, START, START.plus(Duration.ofHours(2)));
    grace.payByCheckout(reservation, "4242424242424242");
    JsonObject refunded = grace.await(id, r -> "refunded".equals(r.getJsonObject("payment").getString("status")),
        "was refunded");
    assertEquals("expired", refunded.getString("status"), "no charged-but-unconfirmed reservation");
    JsonObject refund = refunded.getJsonObject("payment").getJsonArray("refunds").getJsonObject(0);
    assertEquals("late_payment", refund.getString("reason"));
    assertEquals(reservation.getJsonObject("price").getJsonObject("total"), refund.getJsonObject("amount"));
  }

  @Test
  void aDeclinedCheckoutLeavesTheHoldUnpaidUntilItLapses() {
    JsonObject reservation = grace.reserve("off_fra_a100_01", 1, START, 1, "checkout");
    String id = reservation.getString("id");
    assertEquals(402, ApiClient.completeCheckout(node, session(reservation), "4000000000000002").statusCode());
    assertEquals("pending_payment", grace.json("/api/v1/reservations/" + id).getString("status"));
    lapse(id);
    assertEquals(0L, count("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + id + "'"));
  }

  @Test
  void aLostWebhookIsRepairedByReconciliation() {
    ApiClient.webhooks(node, "drop");
    JsonObject reservation = grace.reserve("off_fra_l40s_01", 1, START, 1, "checkout");
    grace.payByCheckout(reservation, "4242424242424242");
    grace.awaitStatus(reservation.getString("id"), "confirmed");
    String event = "(SELECT id FROM sandbox_stripe.events WHERE type = 'checkout.session.completed'"
        + " AND body -> 'data' -> 'object' ->> 'id' = '" + session(reservation) + "')";
    // the reconciler applies each missed event in its own transaction, oldest first: the payment
    // intent's event can confirm the reservation a moment before the session's event is applied
    Eventually.eventually("the session's event applied", () -> count("SELECT count(*) FROM stripe_events WHERE id = "
        + event), n -> n >= 1L);
    assertEquals(1L, count("SELECT count(*) FROM stripe_events WHERE id = " + event), "applied once");
    assertEquals(0L, count("SELECT count(*) FROM sandbox_stripe.deliveries WHERE status = 200 AND event_id = " + event),
        "no webhook ever delivered it");
  }

  @Test
  void aPaymentMadeJustBeforeTheRenterCancelledIsRefunded() {
    ApiClient.webhooks(node, "drop"); // Stripe took the money; its report has not arrived yet
    JsonObject reservation = grace.reserve("off_nyc_h100_01", 2, START.plus(Duration.ofHours(12)), 1, "checkout");
    String id = reservation.getString("id");
    // the reconciler (every second here) would confirm the payment before the cancel: hold its
    // cluster-job lock, with which a tick skips, until the cancel is in
    Lock reconciler = TestGateway.await(node.gateway().vertx().sharedData()
        .getLockWithTimeout(RECONCILER_LOCK, TestGateway.TIMEOUT.toMillis() / 2));
    try {
      grace.payByCheckout(reservation, "4242424242424242");
      assertEquals(200, grace.post("/api/v1/reservations/" + id + "/cancel", null).statusCode());
    } finally {
      reconciler.release();
    }
    ApiClient.webhooks(node, "normal");
    JsonObject refunded = grace.await(id, r -> "refunded".equals(r.getJsonObject("payment").getString("status")),
        "had the late payment refunded");
    assertEquals("cancelled", refunded.getString("status"));
    assertEquals("late_payment", refunded.getJsonObject("payment").getJsonArray("refunds").getJsonObject(0)
        .getString("reason"));
  }

  @Test
  void aCrashBetweenTheChargeAndTheCommitIsFinishedByTheRetryWithoutASecondCharge() {
    ApiClient.webhooks(node, "drop"); // only the retry can finish it
    crashOnce("charge");
    String key = UUID.randomUUID().toString();
    JsonObject request = ApiClient.reservationRequest("off_nyc_h100_01", 4, START.plus(Duration.ofHours(5)), 1,
        "saved_card");
    HttpResponse<String> crashed = grace.post("/api/v1/reservations", request, key);
    assertEquals(500, crashed.statusCode(), crashed.body());
    assertFalse(crashed.body().contains("injected"), "no internals leak: " + crashed.body());

    HttpResponse<String> retried = grace.post("/api/v1/reservations", request, key);
    assertEquals(201, retried.statusCode(), retried.body());
    JsonObject reservation = new JsonObject(retried.body());
    assertEquals("confirmed", reservation.getString("status"));
    String id = reservation.getString("id");
    assertEquals(1L, count("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'payment_intent'"
        + " AND data -> 'metadata' ->> 'reservation_id' = '" + id + "'"), "Stripe saw one payment intent");
    assertEquals(1L, count("SELECT count(*) FROM ledger_transactions t JOIN payments p ON p.payment_intent_id = t.ref"
        + " WHERE p.reservation_id = '" + id + "'"), "one ledger transaction");
  }

  @Test
  void aCrashBetweenTheRefundAndTheCommitIsFinishedByTheReconciler() {
    JsonObject reservation = grace.reserve("off_osl_4090_01", 1, START.plus(Duration.ofHours(9)), 2, "saved_card");
    String id = reservation.getString("id");
    crashOnce("refund");
    HttpResponse<String> cancelled = grace.post("/api/v1/reservations/" + id + "/cancel", null);
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    JsonObject refund = new JsonObject(cancelled.body()).getJsonObject("payment").getJsonArray("refunds")
        .getJsonObject(0);
    assertEquals("pending", refund.getString("status"), "decided and kept, not yet recorded");

    grace.await(id, r -> "succeeded".equals(r.getJsonObject("payment").getJsonArray("refunds").getJsonObject(0)
        .getString("status")), "had its refund finished");
    assertEquals(1L, count("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'refund'"
        + " AND data -> 'metadata' ->> 'refund_id' = '" + refund.getString("id") + "'"), "Stripe saw one refund");
    assertEquals(1L, count("SELECT count(*) FROM ledger_transactions t JOIN refunds f ON f.stripe_refund_id = t.ref"
        + " WHERE f.id = '" + refund.getString("id") + "'"), "one ledger transaction");
  }

  /** Makes the next ledger transaction of this kind fail inside its commit, as a crash there would. */
  private static void crashOnce(String kind) {
    node.sql("CREATE SEQUENCE IF NOT EXISTS crash_" + kind);
    node.sql("CREATE OR REPLACE FUNCTION crash_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        + " IF NEW.kind = '" + kind + "' AND nextval('crash_" + kind + "') = 1 THEN"
        + " RAISE EXCEPTION 'injected crash before commit'; END IF; RETURN NEW; END $$");
    node.sql("CREATE TRIGGER crash_once BEFORE INSERT ON ledger_transactions FOR EACH ROW EXECUTE FUNCTION crash_once()");
  }

  private static void lapse(String id) {
    node.sql("UPDATE reservations SET hold_expires_at = now() - interval '1 second' WHERE id = '" + id + "'");
    grace.awaitStatus(id, "expired");
  }

  private static String session(JsonObject reservation) {
    return ApiClient.sessionOf(reservation.getJsonObject("payment").getString("checkout_url"));
  }

  private static long count(String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }
}
