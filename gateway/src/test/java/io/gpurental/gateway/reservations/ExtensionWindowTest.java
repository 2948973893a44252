package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The moment between a window's end and the scheduler's next tick: the scheduler is slowed to an
 * hour here, so a reservation whose end has passed is still {@code confirmed}, and only the end
 * time decides what an extension may do.
 */
@GatewayTest(settings = {
    "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=3600000"})
class ExtensionWindowTest {
  private static final Instant LATER = Instant.now().plus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static TestGateway node;
  private static ApiClient carol;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    carol = ApiClient.signIn(node, "carol");
    carol.saveCard("4242424242424242");
  }

  @AfterEach
  void theLedgerChecksOut() {
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void anExtensionAskedForAfterTheEndIsRefused() {
    String id = carol.reserve("off_fra_l40s_01", 1, LATER, 1, "saved_card").getString("id");
    endWindow(id);
    HttpResponse<String> refused = carol.post("/api/v1/reservations/" + id + "/extend",
        new JsonObject().put("hours", 1).put("payment", "saved_card"));
    assertEquals(409, refused.statusCode(), refused.body());
    assertTrue(refused.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
    assertTrue(new JsonObject(refused.body()).getString("detail").contains("window ended"), refused.body());
    assertEquals(0L, count("SELECT count(*) FROM reservation_extensions WHERE reservation_id = '" + id + "'"));
    assertEquals(1L, count("SELECT count(*) FROM payments WHERE reservation_id = '" + id + "'"), "nothing charged");
  }

  @Test
  void anExtensionPaidAfterTheEndIsRefundedAndTheEndStays() {
    JsonObject created = carol.reserve("off_nyc_h100_01", 1, LATER.plus(5, ChronoUnit.HOURS), 1, "saved_card");
    String id = created.getString("id");
    HttpResponse<String> asked = carol.post("/api/v1/reservations/" + id + "/extend",
        new JsonObject().put("hours", 2).put("payment", "checkout"));
    assertEquals(201, asked.statusCode(), asked.body());
    JsonObject extension = new JsonObject(asked.body()).getJsonArray("extensions").getJsonObject(0);
    String end = endWindow(id);

    assertEquals(200, ApiClient.completeCheckout(node, ApiClient.sessionOf(extension.getString("checkout_url")),
        "4242424242424242").statusCode());
    String payment = "(SELECT id FROM payments WHERE extension_id = '" + extension.getString("id") + "')";
    Eventually.eventually("the late payment was refunded", () -> count("SELECT count(*) FROM refunds"
        + " WHERE status = 'succeeded' AND reason = 'late_payment' AND payment_id = " + payment), n -> n > 0);
    assertEquals(1L, count("SELECT count(*) FROM refunds WHERE status = 'succeeded' AND reason = 'late_payment'"
        + " AND payment_id = " + payment), "the late extension payment is refunded in full");
    JsonObject after = carol.json("/api/v1/reservations/" + id);
    assertEquals(end, after.getString("end"), "the window did not grow after it had ended");
    assertEquals(1, after.getInteger("hours"));
  }

  /** Moves the window into the past, as time would; answers its new end. */
  private static String endWindow(String id) {
    node.sql("UPDATE reservations SET period = tstzrange(now() - interval '2 hours', now() - interval '1 hour')"
        + " WHERE id = '" + id + "'");
    return carol.json("/api/v1/reservations/" + id).getString("end");
  }

  private static long count(String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }
}
