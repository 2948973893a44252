package io.gpurental.gateway.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The demo's seeded payments are real objects of the sandbox's Stripe (payment intent, charge,
 * balance transaction, and the refunds of the seeded credits), so an operator's manual refund of
 * a seeded reservation goes the ordinary way: Stripe refunds it, the ledger records it, and the
 * sandbox's charge agrees with the gateway on what is left to refund.
 */
@GatewayTest(settings = {"GATEWAY_SANDBOX_SEED_HISTORY=true"})
class DemoHistoryRefundTest {
  private static TestGateway node;
  private static ApiClient operator;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    operator = ApiClient.signIn(node, "operator");
  }

  @Test
  void anOperatorRefundsPartOfASeededReservation() {
    Row paid = node.sql("SELECT reservation_id, amount FROM payments WHERE id LIKE 'pay\\_demo%' AND amount_refunded = 0"
        + " ORDER BY id LIMIT 1").iterator().next();
    String id = paid.getString(0);
    JsonObject request = refund(id, 500, "refund", "the demo's operator gives some back");
    assertEquals(List.of("succeeded"), statuses(request), request.encode());
    assertEquals(500L, chargeRefunded(id));
    assertEquals(new JsonObject().put("ok", true).put("problems", new JsonArray()), ApiClient.ledgerCheck(node));
  }

  @Test
  void anOperatorRefundsAllThatIsLeftOfACreditedSeededReservation() {
    Row credited = node.sql("SELECT reservation_id, amount, amount_refunded FROM payments WHERE id LIKE 'pay\\_demo%'"
        + " AND amount_refunded > 0 ORDER BY id LIMIT 1").iterator().next();
    String id = credited.getString(0);
    long left = credited.getLong(1) - credited.getLong(2);
    assertEquals(credited.getLong(2), chargeRefunded(id), "the sandbox's charge holds the seeded credit's refund");
    JsonObject request = refund(id, left, "credit", "the rest, as goodwill");
    assertEquals(List.of("succeeded"), statuses(request), request.encode());
    assertEquals(credited.getLong(1), chargeRefunded(id), "refunded in full on the sandbox's charge");
    HttpResponse<String> more = operator.post("/api/v1/operator/reservations/" + id + "/refunds",
        new JsonObject().put("amount", 1).put("currency", "usd").put("kind", "refund").put("reason", "one more cent"),
        UUID.randomUUID().toString());
    assertEquals(409, more.statusCode(), more.body());
    assertEquals(new JsonObject().put("ok", true).put("problems", new JsonArray()), ApiClient.ledgerCheck(node));
  }

  private static JsonObject refund(String reservationId, long amount, String kind, String reason) {
    HttpResponse<String> answer = operator.post("/api/v1/operator/reservations/" + reservationId + "/refunds",
        new JsonObject().put("amount", amount).put("currency", "usd").put("kind", kind).put("reason", reason),
        UUID.randomUUID().toString());
    assertEquals(201, answer.statusCode(), answer.body());
    JsonObject request = new JsonObject(answer.body());
    assertTrue(request.getJsonArray("refunds").size() > 0, request.encode());
    return request;
  }

  private static List<String> statuses(JsonObject request) {
    return request.getJsonArray("refunds").stream().map(r -> ((JsonObject) r).getString("status")).distinct().toList();
  }

  /** What the sandbox's Stripe says was refunded of the reservation's charge. */
  private static long chargeRefunded(String reservationId) {
    return node.sql("SELECT (c.data ->> 'amount_refunded')::bigint FROM payments p"
        + " JOIN sandbox_stripe.objects pi ON pi.id = p.payment_intent_id"
        + " JOIN sandbox_stripe.objects c ON c.id = pi.data ->> 'latest_charge'"
        + " WHERE p.reservation_id = '" + reservationId + "'").iterator().next().getLong(0);
  }
}
