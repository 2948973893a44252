package io.gpurental.gateway.sandbox.stripe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.PaymentIntent;
import com.stripe.param.PaymentIntentCreateParams;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stand-in's idempotent requests are atomic, as Stripe's are: a request whose process dies
 * mid-way leaves nothing behind, so its retry with the same key runs it once; two at once with
 * one key never both run it.
 */
@GatewayTest
class StripeIdempotencyCrashTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static TestGateway node;
  private static StripeClient stripe;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    stripe = StripeClient.builder().setApiKey(node.gateway().config().stripe().secretKey())
        .setApiBase(node.url("/sandbox/stripe")).setMaxNetworkRetries(0).build();
  }

  @Test
  void aRefundWhoseConnectionDiesMidWayLeavesNothingAndItsRetryRefundsOnce() throws Exception {
    String intent = paidIntent();
    String key = "refund-" + UUID.randomUUID();
    // the database session running the refund dies after the refund, its balance transaction, the
    // charge's update and refund.created were written, before charge.refunded: a node killed mid-way
    node.sql("CREATE FUNCTION sandbox_stripe.die_mid_refund() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        + " IF NEW.type = 'charge.refunded' AND NEW.body -> 'data' -> 'object' ->> 'payment_intent' = '" + intent
        + "' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF; RETURN NEW; END $$;"
        + " CREATE TRIGGER die_mid_refund BEFORE INSERT ON sandbox_stripe.events FOR EACH ROW"
        + " EXECUTE FUNCTION sandbox_stripe.die_mid_refund()");
    HttpResponse<String> cut;
    try {
      cut = refund(key, intent).join();
    } finally {
      dropTheTrigger();
    }
    assertEquals(500, cut.statusCode(), cut.body());
    assertEquals(0, count("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'refund'"
        + " AND data ->> 'payment_intent' = '" + intent + "'"), "the cut request left no refund");
    assertEquals(0, count("SELECT count(*) FROM sandbox_stripe.idempotency_keys WHERE key = '" + key + "'"),
        "nor its key");
    assertEquals(0, count("SELECT (data ->> 'amount_refunded')::bigint FROM sandbox_stripe.objects"
        + " WHERE type = 'charge' AND data ->> 'payment_intent' = '" + intent + "'"), "nor a change to the charge");

    HttpResponse<String> retried = refund(key, intent).join();
    assertEquals(200, retried.statusCode(), "the retry (as sent to another node) runs the refund: " + retried.body());
    JsonObject refund = new JsonObject(retried.body());
    assertEquals(1000L, refund.getLong("amount"));
    HttpResponse<String> again = refund(key, intent).join();
    assertEquals(200, again.statusCode(), again.body());
    assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElse(null));
    assertEquals(refund.getString("id"), new JsonObject(again.body()).getString("id"), "replayed, not refunded again");
    assertEquals(1, count("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'refund'"
        + " AND data ->> 'payment_intent' = '" + intent + "'"), "exactly one refund");
    assertEquals(1000, count("SELECT (data ->> 'amount_refunded')::bigint FROM sandbox_stripe.objects"
        + " WHERE type = 'charge' AND data ->> 'payment_intent' = '" + intent + "'"));
    assertEquals(1, count("SELECT count(*) FROM sandbox_stripe.events WHERE type = 'charge.refunded'"
        + " AND body -> 'data' -> 'object' ->> 'payment_intent' = '" + intent + "'"), "one charge.refunded event");
  }

  @Test
  void requestsWithOneKeyAtOnceRunTheRefundOnce() throws Exception {
    String intent = paidIntent();
    String key = "refund-" + UUID.randomUUID();
    List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      sent.add(refund(key, intent));
    }
    String refundId = null;
    int conflicts = 0;
    for (CompletableFuture<HttpResponse<String>> future : sent) {
      HttpResponse<String> response = future.join();
      JsonObject body = new JsonObject(response.body());
      if (response.statusCode() == 409) {
        assertEquals("idempotency_error", body.getJsonObject("error").getString("type"), response.body());
        conflicts++;
        continue;
      }
      assertEquals(200, response.statusCode(), response.body());
      if (refundId == null) {
        refundId = body.getString("id");
      }
      assertEquals(refundId, body.getString("id"), "every answer names the one refund");
    }
    HttpResponse<String> after = refund(key, intent).join();
    assertEquals(200, after.statusCode(), after.body());
    String settled = new JsonObject(after.body()).getString("id");
    assertTrue(refundId == null || refundId.equals(settled), conflicts + " conflicts");
    assertEquals(1, count("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'refund'"
        + " AND data ->> 'payment_intent' = '" + intent + "'"), "exactly one refund");
  }

  private static String paidIntent() throws StripeException {
    PaymentIntent intent = stripe.paymentIntents().create(PaymentIntentCreateParams.builder().setAmount(2100L)
        .setCurrency("usd").setPaymentMethod("pm_card_visa").setConfirm(true).build());
    assertEquals("succeeded", intent.getStatus());
    return intent.getId();
  }

  private static CompletableFuture<HttpResponse<String>> refund(String key, String intent) {
    return HTTP.sendAsync(HttpRequest.newBuilder(URI.create(node.url("/sandbox/stripe/v1/refunds")))
        .timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + node.gateway().config().stripe().secretKey())
        .header("Idempotency-Key", key)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("payment_intent=" + intent + "&amount=1000"))
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  private static long count(String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }

  /**
   * The pool may hand out the connection whose backend the trigger terminated before it noticed
   * the close ("Connection is not active now"); that connection fails once and leaves the pool,
   * so the next try gets a live one.
   */
  private void dropTheTrigger() {
    String drop = "DROP TRIGGER IF EXISTS die_mid_refund ON sandbox_stripe.events;"
        + " DROP FUNCTION IF EXISTS sandbox_stripe.die_mid_refund()";
    try {
      node.sql(drop);
    } catch (IllegalStateException closed) {
      node.sql(drop);
    }
  }
}
