package io.gpurental.gateway.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Card fees come from the charge's Stripe balance transaction (2.9 % + 30¢ in the sandbox, as for
 * US cards) and land in the ledger as {@code expense:card_fees} against Stripe clearing; a refund's
 * balance transaction gives no fee back.
 */
@GatewayTest(settings = {"GATEWAY_STRIPE_RECONCILE_INTERVAL_SECONDS=1"})
class CardFeeTest {
  private static final Instant START = Instant.now().plus(6, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static TestGateway node;
  private static ApiClient ivy;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    ivy = ApiClient.signIn(node, "ivy");
    ivy.saveCard("4242424242424242");
  }

  @AfterEach
  void theLedgerBalances() {
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
    assertEquals(0L, one("SELECT coalesce(sum(amount), 0) FROM ledger_entries"), "debits equal credits");
  }

  @Test
  void aPaymentsFeeIsReadFromItsBalanceTransactionAndBookedOnce() {
    JsonObject reservation = ivy.reserve("off_nyc_h100_01", 1, START, 2, "saved_card");
    long total = reservation.getJsonObject("price").getJsonObject("total").getLong("amount");
    long fee = Math.round(total * 0.029) + 30;
    String intent = awaitFee(reservation.getString("id"));
    assertEquals(fee, one("SELECT card_fee FROM payments WHERE payment_intent_id = '" + intent + "'"));
    String txnId = text("SELECT balance_transaction_id FROM payments WHERE payment_intent_id = '" + intent + "'");
    assertEquals(fee, one("SELECT sum(e.amount) FROM ledger_entries e JOIN ledger_transactions t ON t.id ="
        + " e.transaction_id WHERE t.kind = 'card_fee' AND t.ref = '" + txnId + "' AND e.account = 'expense:card_fees'"));
    assertEquals(-fee, one("SELECT sum(e.amount) FROM ledger_entries e JOIN ledger_transactions t ON t.id ="
        + " e.transaction_id WHERE t.kind = 'card_fee' AND t.ref = '" + txnId + "'"
        + " AND e.account = 'asset:stripe_clearing'"));

    JsonObject pi = stripe("/payment_intents/" + intent + "?expand[]=latest_charge.balance_transaction");
    JsonObject txn = pi.getJsonObject("latest_charge").getJsonObject("balance_transaction");
    assertTrue(txn.getString("id").startsWith("txn_"), txn.encode());
    assertEquals("charge", txn.getString("type"));
    assertEquals(total, txn.getLong("amount"));
    assertEquals(fee, txn.getLong("fee"));
    assertEquals(total - fee, txn.getLong("net"));
    assertEquals("stripe_fee", txn.getJsonArray("fee_details").getJsonObject(0).getString("type"));
    assertEquals(fee, txn.getJsonArray("fee_details").getJsonObject(0).getLong("amount"));
    assertEquals(txn, stripe("/balance_transactions/" + txn.getString("id")), "retrievable by id");
    assertEquals(txn.getString("id"), txnId, "the ledger names the balance transaction it records");
  }

  @Test
  void aRefundsBalanceTransactionIsNegativeAndTheFeeStays() {
    JsonObject reservation = ivy.reserve("off_nyc_h100_01", 1, START.plus(5, ChronoUnit.HOURS), 1, "saved_card");
    String intent = awaitFee(reservation.getString("id"));
    long fee = one("SELECT card_fee FROM payments WHERE payment_intent_id = '" + intent + "'");
    HttpResponse<String> cancelled = ivy.post("/api/v1/reservations/" + reservation.getString("id") + "/cancel", null);
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    String refundId = Eventually.eventually("the refund succeeded", () -> node.sql("SELECT r.stripe_refund_id FROM"
        + " refunds r JOIN payments p ON p.id = r.payment_id WHERE r.status = 'succeeded' AND p.payment_intent_id = '"
        + intent + "'").iterator(), rows -> rows.hasNext()).next().getString(0);
    JsonObject refund = stripe("/refunds/" + refundId + "?expand[]=balance_transaction");
    JsonObject txn = refund.getJsonObject("balance_transaction");
    assertEquals("refund", txn.getString("type"));
    assertEquals(-refund.getLong("amount"), txn.getLong("amount"));
    assertEquals(0L, (long) txn.getLong("fee"), "Stripe keeps the original fee");
    assertEquals(-refund.getLong("amount"), txn.getLong("net"));
    assertEquals(fee, one("SELECT card_fee FROM payments WHERE payment_intent_id = '" + intent + "'"));
  }

  @Test
  void theReconcilerRecordsAFeeThatWasNeverRecorded() {
    JsonObject reservation = ivy.reserve("off_nyc_h100_01", 2, START.plus(10, ChronoUnit.HOURS), 1, "saved_card");
    String intent = awaitFee(reservation.getString("id"));
    long fee = one("SELECT card_fee FROM payments WHERE payment_intent_id = '" + intent + "'");
    // as if the node had stopped between the payment and reading its fee
    String txnId = text("SELECT balance_transaction_id FROM payments WHERE payment_intent_id = '" + intent + "'");
    node.sql("BEGIN; DELETE FROM ledger_entries WHERE transaction_id IN (SELECT id FROM ledger_transactions WHERE"
        + " kind = 'card_fee' AND ref = '" + txnId + "'); DELETE FROM ledger_transactions WHERE kind = 'card_fee'"
        + " AND ref = '" + txnId + "'; UPDATE payments SET card_fee = NULL, balance_transaction_id = NULL"
        + " WHERE payment_intent_id = '" + intent + "'; COMMIT");
    awaitFee(reservation.getString("id"));
    assertEquals(fee, one("SELECT card_fee FROM payments WHERE payment_intent_id = '" + intent + "'"));
    assertEquals(1L, one("SELECT count(*) FROM ledger_transactions WHERE kind = 'card_fee' AND ref = '" + txnId + "'"));
  }

  private static String awaitFee(String reservationId) {
    return Eventually.eventually("the card fee of " + reservationId + " is recorded", () -> node.sql(
        "SELECT payment_intent_id FROM payments WHERE card_fee IS NOT NULL AND reservation_id = '" + reservationId
            + "'").iterator(), rows -> rows.hasNext()).next().getString(0);
  }

  private static JsonObject stripe(String path) {
    HttpResponse<String> answer = node.send(HttpRequest.newBuilder(URI.create(node.url("/sandbox/stripe/v1" + path)))
        .header("Authorization", "Bearer " + node.gateway().config().stripe().secretKey()));
    assertEquals(200, answer.statusCode(), answer.body());
    return new JsonObject(answer.body());
  }

  private static long one(String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }

  private static String text(String sql) {
    return node.sql(sql).iterator().next().getString(0);
  }
}
