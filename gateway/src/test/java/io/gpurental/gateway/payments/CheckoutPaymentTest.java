package io.gpurental.gateway.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Web checkout through stripe-java and the sandbox: only the signed webhook confirms, once. */
@GatewayTest
class CheckoutPaymentTest {
  private static final Instant START = Instant.now().plus(4, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static TestGateway node;
  private static ApiClient payer;

  @BeforeAll
  static void start(TestGateway gateway, @SignedIn("payer") ApiClient signedIn) {
    node = gateway;
    payer = signedIn;
  }

  @AfterEach
  void theLedgerChecksOut() {
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void paidCheckoutConfirmsTheReservationByWebhookAndBalancesTheLedger() throws Exception {
    JsonObject reservation = reserve("off_nyc_h100_01", 2, 3);
    JsonObject payment = reservation.getJsonObject("payment");
    assertEquals("pending", payment.getString("status"));
    String session = payment.getString("checkout_url").replaceAll(".*/checkout/", "");
    assertEquals("pending_payment", reservation.getString("status"), "not confirmed by creating the checkout");
    var lines = node.sql("SELECT l ->> 'description', (l ->> 'amount_total')::bigint FROM sandbox_stripe.objects,"
        + " jsonb_array_elements(data -> '_sandbox' -> 'line_items') AS l WHERE id = '" + session + "'");
    java.util.List<String> names = new java.util.ArrayList<>();
    long sum = 0;
    for (var line : lines) {
      names.add(line.getString(0));
      sum += line.getLong(1);
    }
    assertEquals(2, names.size(), "GPU hours and the platform fee, itemized: " + names);
    assertEquals("Platform fee", names.get(1));
    assertEquals(reservation.getJsonObject("price").getJsonObject("total").getLong("amount"), sum);

    assertEquals(200, ApiClient.completeCheckout(node, session, "4242424242424242").statusCode());
    JsonObject confirmed = payer.awaitStatus(reservation.getString("id"), "confirmed");
    assertEquals("succeeded", confirmed.getJsonObject("payment").getString("status"));
    long total = reservation.getJsonObject("price").getJsonObject("total").getLong("amount");
    var ledger = node.sql("SELECT count(DISTINCT t.id), sum(e.amount), sum(e.amount) FILTER (WHERE e.account ="
        + " 'asset:stripe_clearing') FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id"
        + " WHERE t.ref = (SELECT payment_intent_id FROM payments WHERE reservation_id = '" + reservation.getString("id")
        + "')").iterator().next();
    assertEquals(1L, ledger.getLong(0));
    assertEquals(0L, ledger.getLong(1), "the transaction balances");
    assertEquals(total, ledger.getLong(2), "the whole total reached Stripe's clearing account");

    // the same event again (as Stripe retries): accepted, nothing changes
    String payload = node.sql("SELECT body::text FROM sandbox_stripe.events WHERE type = 'checkout.session.completed'"
        + " AND body -> 'data' -> 'object' ->> 'id' = '" + session + "'").iterator().next().getString(0);
    assertEquals(200, deliver(payload, sign(payload, Instant.now().getEpochSecond())).statusCode());
    assertEquals(1L, node.sql("SELECT count(*) FROM ledger_transactions WHERE kind = 'charge'").iterator().next()
        .getLong(0));
  }

  @Test
  void aDeclinedCardLeavesTheReservationUnpaid() {
    JsonObject reservation = reserve("off_osl_4090_01", 1, 2);
    String session = reservation.getJsonObject("payment").getString("checkout_url").replaceAll(".*/checkout/", "");
    HttpResponse<String> declined = ApiClient.completeCheckout(node, session, "4000000000000002");
    assertEquals(402, declined.statusCode());
    assertEquals("pending_payment", payer.json("/api/v1/reservations/" + reservation.getString("id"))
        .getString("status"));
  }

  @Test
  void badSignaturesAndStaleOrFutureTimestampsAreRefusedWithoutEffect() throws Exception {
    String payload = new JsonObject().put("id", "evt_forged").put("object", "event")
        .put("type", "checkout.session.completed").put("data", new JsonObject().put("object", new JsonObject())).encode();
    long now = Instant.now().getEpochSecond();
    assertEquals(400, deliver(payload, "t=" + now + ",v1=" + "0".repeat(64)).statusCode());
    assertEquals(400, deliver(payload, sign(payload, now - 3600)).statusCode(), "stale");
    assertEquals(400, deliver(payload, sign(payload, now + 3600)).statusCode(), "from the future");
    assertEquals(400, deliver(payload, null).statusCode(), "unsigned");
    assertEquals(0L, node.sql("SELECT count(*) FROM stripe_events WHERE id = 'evt_forged'").iterator().next().getLong(0));
  }

  private static JsonObject reserve(String offerId, int gpus, int hours) {
    return payer.reserve(payer.quote(offerId, gpus, START, hours).getString("id"), "checkout");
  }

  private static HttpResponse<String> deliver(String payload, String signature) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url("/api/v1/stripe/webhook")))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(payload));
    if (signature != null) {
      request.header("Stripe-Signature", signature);
    }
    return node.send(request);
  }

  private static String sign(String payload, long timestamp) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(node.gateway().config().stripe().webhookSecret().getBytes(StandardCharsets.UTF_8),
        "HmacSHA256"));
    return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(
        mac.doFinal((timestamp + "." + payload).getBytes(StandardCharsets.UTF_8)));
  }
}
