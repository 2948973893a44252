package io.gpurental.gateway.operator.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every renter's reservations with filters; a manual refund or credit lands in payments, the
 * ledger (balanced) and the audit log and shows to the renter with its reason, and never exceeds
 * what was paid; the ledger check with the reconciliation status, healthy and on a broken row.
 */
@GatewayTest(settings = {"GATEWAY_STRIPE_RECONCILE_INTERVAL_SECONDS=1"})
class MoneyAdministrationTest {
  private static final Instant LATER = Instant.now().plus(5, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static TestGateway node;
  private static ApiClient operator;
  private static ApiClient rita;
  private static ApiClient sam;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    operator = ApiClient.signIn(node, "operator");
    rita = ApiClient.signIn(node, "rita");
    sam = ApiClient.signIn(node, "sam");
    rita.saveCard("4242424242424242");
    sam.saveCard("4242424242424242");
  }

  @Test
  void operatorsListEveryRentersReservationsWithFilters() {
    JsonObject ritas = rita.reserve("off_fra_a100_01", 1, LATER, 2, "saved_card");
    JsonObject sams = sam.reserve("off_nyc_h100_01", 1, LATER.plus(48, ChronoUnit.HOURS), 1, "saved_card");
    String ritaId = rita.json("/api/v1/me").getString("id");

    JsonArray all = operator.json("/api/v1/operator/reservations?limit=100").getJsonArray("data");
    assertTrue(ids(all).contains(ritas.getString("id")) && ids(all).contains(sams.getString("id")), all.encode());
    JsonArray byAccount = operator.json("/api/v1/operator/reservations?account_id=" + ritaId).getJsonArray("data");
    assertTrue(ids(byAccount).contains(ritas.getString("id")));
    assertFalse(ids(byAccount).contains(sams.getString("id")));
    JsonObject listed = byAccount.stream().map(JsonObject.class::cast)
        .filter(r -> r.getString("id").equals(ritas.getString("id"))).findFirst().orElseThrow();
    assertEquals(ritaId, listed.getJsonObject("account").getString("id"));
    assertEquals(listed.getJsonObject("total"), listed.getJsonObject("paid"), listed.encode());
    assertEquals(listed.getJsonObject("paid"), listed.getJsonObject("refundable"));

    String hostId = listed.getString("host_id");
    assertFalse(ids(operator.json("/api/v1/operator/reservations?host_id=" + hostId).getJsonArray("data"))
        .contains(sams.getString("id")), "another host");
    String window = "&from=" + LATER.plus(47, ChronoUnit.HOURS) + "&to=" + LATER.plus(50, ChronoUnit.HOURS);
    JsonArray inWindow = operator.json("/api/v1/operator/reservations?status=confirmed" + window).getJsonArray("data");
    assertTrue(ids(inWindow).contains(sams.getString("id")));
    assertFalse(ids(inWindow).contains(ritas.getString("id")), "rita's window ended before");
    assertEquals(403, rita.get("/api/v1/operator/reservations").statusCode());
    assertEquals(400, operator.get("/api/v1/operator/reservations?from=yesterday").statusCode());
  }

  @Test
  void aManualCreditLandsInPaymentsLedgerAndAuditAndTheRenterSeesItsReason() {
    JsonObject reservation = rita.reserve("off_fra_a100_01", 1, LATER.plus(100, ChronoUnit.HOURS), 10, "saved_card");
    String id = reservation.getString("id");
    long paid = reservation.getJsonObject("payment").getJsonObject("amount_paid").getLong("amount");
    String currency = reservation.getJsonObject("payment").getJsonObject("amount_paid").getString("currency");
    assertTrue(paid > 300, reservation.encode());
    String key = UUID.randomUUID().toString();
    JsonObject body = new JsonObject().put("amount", 300).put("currency", currency).put("kind", "credit")
        .put("reason", "GPU throttled for an hour");

    HttpResponse<String> credited = operator.post("/api/v1/operator/reservations/" + id + "/refunds", body, key);
    assertEquals(201, credited.statusCode(), credited.body());
    JsonObject request = new JsonObject(credited.body());
    assertEquals(300, request.getJsonObject("amount").getLong("amount"));
    HttpResponse<String> replay = operator.post("/api/v1/operator/reservations/" + id + "/refunds", body, key);
    assertEquals(request.getString("id"), new JsonObject(replay.body()).getString("id"), "the same key, the same request");
    assertEquals(422, operator.post("/api/v1/operator/reservations/" + id + "/refunds", body.copy().put("amount", 301),
        key).statusCode(), "the key used for another request");

    JsonObject seen = rita.await(id, r -> r.getJsonObject("payment").getJsonArray("refunds").stream()
        .map(JsonObject.class::cast).anyMatch(f -> "succeeded".equals(f.getString("status"))), "credit succeeded");
    JsonObject refund = seen.getJsonObject("payment").getJsonArray("refunds").getJsonObject(0);
    assertEquals("GPU throttled for an hour", refund.getString("note"));
    assertEquals("credit", refund.getString("kind"));
    assertEquals("operator", refund.getString("reason"));
    assertEquals(300, seen.getJsonObject("payment").getJsonObject("amount_refunded").getLong("amount"));
    JsonObject payment = rita.json("/api/v1/payments").getJsonArray("data").stream().map(JsonObject.class::cast)
        .filter(p -> p.getString("reservation_id").equals(id)).findFirst().orElseThrow();
    assertEquals(300, payment.getLong("amount_refunded"));
    assertEquals("GPU throttled for an hour", payment.getJsonArray("refunds").getJsonObject(0).getString("note"));

    assertEquals(300L, node.sql("SELECT e.amount FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id"
        + " JOIN refunds f ON f.stripe_refund_id = t.ref WHERE f.request_id = '" + request.getString("id")
        + "' AND e.account = 'contra_revenue:credits'").iterator().next().getLong(0));
    assertEquals(1, node.sql("SELECT 1 FROM audit_log WHERE action = 'payment.credit_requested' AND target = '" + id
        + "' AND after->>'reason' = 'GPU throttled for an hour'").size());
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());

    HttpResponse<String> tooMuch = operator.post("/api/v1/operator/reservations/" + id + "/refunds",
        body.copy().put("amount", paid - 299).put("kind", "refund"));
    assertEquals(409, tooMuch.statusCode(), tooMuch.body());
    assertEquals(paid - 300, new JsonObject(tooMuch.body()).getJsonObject("refundable").getLong("amount"));
    HttpResponse<String> rest = operator.post("/api/v1/operator/reservations/" + id + "/refunds",
        body.copy().put("amount", paid - 300).put("kind", "refund").put("reason", "host retired"));
    assertEquals(201, rest.statusCode(), rest.body());
    assertEquals(409, operator.post("/api/v1/operator/reservations/" + id + "/refunds", body.copy().put("amount", 1))
        .statusCode(), "nothing left");
    assertEquals(400, operator.post("/api/v1/operator/reservations/" + id + "/refunds", body, null).statusCode(),
        "an Idempotency-Key is required");
    assertEquals(404, operator.post("/api/v1/operator/reservations/rsv_nothere/refunds", body).statusCode());
    Eventually.eventually("both refunds succeeded", () -> ApiClient.ledgerCheck(node), check -> check.getBoolean("ok")
        && node.sql("SELECT 1 FROM refunds WHERE reason = 'operator' AND status = 'succeeded' AND payment_id IN"
            + " (SELECT id FROM payments WHERE reservation_id = '" + id + "')").size() == 2);
  }

  @Test
  void theLedgerCheckSaysOkOnAHealthyLedgerAndListsABrokenRow() {
    rita.reserve("off_fra_a100_01", 1, LATER.plus(200, ChronoUnit.HOURS), 2, "saved_card");
    JsonObject healthy = Eventually.eventually("a reconciliation ran", () -> operator.json("/api/v1/operator/ledger/check"),
        status -> status.getJsonObject("reconciliation").getValue("last_run") != null);
    JsonObject ledger = healthy.getJsonObject("ledger");
    assertTrue(ledger.getBoolean("ok"), ledger.encode());
    assertTrue(ledger.getLong("transactions") > 0);
    assertEquals(0, ledger.getJsonArray("balances").stream().map(JsonObject.class::cast)
        .mapToLong(b -> b.getLong("amount")).sum(), "the totals per account balance");
    JsonObject reconciliation = healthy.getJsonObject("reconciliation");
    assertTrue(reconciliation.getBoolean("ok"), reconciliation.encode());
    assertEquals(1, reconciliation.getInteger("interval_seconds"));
    assertNotNull(reconciliation.getJsonObject("last_run").getString("finished_at"));

    // a transaction that does not balance, as a bad manual fix would leave (the commit check is bypassed)
    node.sql("ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_balance");
    try {
      node.sql("WITH t AS (INSERT INTO ledger_transactions (kind, ref) VALUES ('adjustment', 'broken_by_test')"
          + " RETURNING id) INSERT INTO ledger_entries (transaction_id, account, amount, currency)"
          + " SELECT id, 'asset:stripe_clearing', 123, 'usd' FROM t");
    } finally {
      node.sql("ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_balance");
    }
    JsonObject broken = operator.json("/api/v1/operator/ledger/check").getJsonObject("ledger");
    assertFalse(broken.getBoolean("ok"));
    JsonObject problem = broken.getJsonArray("problems").getJsonObject(0);
    assertEquals("unbalanced_transaction", problem.getString("problem"), broken.encode());
    assertEquals("adjustment:broken_by_test", problem.getString("ref"));
    assertTrue(problem.getString("detail").contains("123"), problem.encode());

    node.sql("DELETE FROM ledger_entries WHERE transaction_id = (SELECT id FROM ledger_transactions"
        + " WHERE ref = 'broken_by_test')");
    node.sql("DELETE FROM ledger_transactions WHERE ref = 'broken_by_test'");
    assertTrue(operator.json("/api/v1/operator/ledger/check").getJsonObject("ledger").getBoolean("ok"));
  }

  @Test
  void aReconciliationThatCannotApplyAnEventShowsAsTheLastFailureUntilItRecovers() {
    ApiClient.webhooks(node, "drop"); // only the reconciler applies events here
    try {
      JsonObject held = sam.reserve("off_nyc_h100_01", 1, LATER.plus(300, ChronoUnit.HOURS), 1, "checkout");
      String payment = held.getJsonObject("payment").getString("id");
      node.sql("CREATE FUNCTION refuse_admin_payment() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
          + " RAISE EXCEPTION 'injected failure'; END $$");
      try {
        node.sql("CREATE TRIGGER refuse_admin_payment BEFORE UPDATE ON payments FOR EACH ROW WHEN (OLD.id = '"
            + payment + "') EXECUTE FUNCTION refuse_admin_payment()");
        sam.payByCheckout(held, "4242424242424242");
        JsonObject failing = Eventually.eventually("a run failed to apply the event",
            () -> operator.json("/api/v1/operator/ledger/check").getJsonObject("reconciliation"),
            status -> !status.getBoolean("ok") && status.getValue("last_failure") != null);
        JsonObject failure = failing.getJsonObject("last_failure");
        assertTrue(failure.getInteger("events_failed") >= 1, failing.encode());
        assertFalse(failure.getBoolean("ok"));
      } finally {
        node.sql("DROP TRIGGER IF EXISTS refuse_admin_payment ON payments");
        node.sql("DROP FUNCTION refuse_admin_payment()");
      }
      sam.awaitStatus(held.getString("id"), "confirmed");
      JsonObject recovered = Eventually.eventually("the next run is clean",
          () -> operator.json("/api/v1/operator/ledger/check").getJsonObject("reconciliation"),
          status -> status.getBoolean("ok"));
      assertNotNull(recovered.getJsonObject("last_failure"), "the last failure is still named");
      assertTrue(recovered.getLong("events_applied_last_24h") >= 1, recovered.encode());
    } finally {
      ApiClient.webhooks(node, "normal");
    }
  }

  private static java.util.List<String> ids(JsonArray reservations) {
    return reservations.stream().map(r -> ((JsonObject) r).getString("id")).toList();
  }
}
