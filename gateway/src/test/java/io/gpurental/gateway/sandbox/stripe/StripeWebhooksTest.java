package io.gpurental.gateway.sandbox.stripe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.stripe.StripeClient;
import com.stripe.exception.SignatureVerificationException;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.net.Webhook;
import com.stripe.param.PaymentIntentCreateParams;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.FreePorts;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Webhooks are signed like Stripe's, carry the library's API version, and are retried until 2xx. */
class StripeWebhooksTest {
  private record Delivery(String payload, String signature, int answeredWith) {}

  @Test
  void testControlDuplicatesAndDropsDeliveries() throws Exception {
    int port = FreePorts.next();
    BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
    Vertx receiver = Vertx.vertx();
    TestGateway.await(receiver.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      deliveries.add(new Delivery(body.toString(), request.getHeader("Stripe-Signature"), 200));
      request.response().setStatusCode(200).end();
    })).listen(port, "127.0.0.1"));
    Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_STRIPE_WEBHOOK_URL", "http://127.0.0.1:" + port + "/hook");
    try (TestGateway node = TestGateway.start(settings)) {
      String key = node.gateway().config().stripe().secretKey();
      StripeClient stripe = StripeClient.builder().setApiKey(key).setApiBase(node.url("/sandbox/stripe")).build();
      assertEquals(200, control(node, node.gateway().sandboxFaultControlKey(), "mode=duplicate"));
      PaymentIntent duplicated = stripe.paymentIntents().create(PaymentIntentCreateParams.builder().setAmount(900L)
          .setCurrency("usd").build());
      Delivery once = await(deliveries, d -> d.payload().contains(duplicated.getId()));
      Delivery twice = await(deliveries, d -> d.payload().contains(duplicated.getId()));
      assertEquals(once.payload(), twice.payload(), "the same event arrives twice");

      assertEquals(200, control(node, node.gateway().sandboxFaultControlKey(), "mode=drop"));
      PaymentIntent dropped = stripe.paymentIntents().create(PaymentIntentCreateParams.builder().setAmount(901L)
          .setCurrency("usd").build());
      String eventId = node.sql("SELECT id FROM sandbox_stripe.events WHERE body -> 'data' -> 'object' ->> 'id' = '"
          + dropped.getId() + "'").iterator().next().getString(0);
      assertEquals("dropped", awaitNote(node, eventId));
      assertTrue(seen.stream().noneMatch(d -> d.payload().contains(dropped.getId())));
      assertTrue(deliveries.stream().noneMatch(d -> d.payload().contains(dropped.getId())), "nothing was sent");
    } finally {
      TestGateway.await(receiver.close());
    }
  }

  private static int control(TestGateway node, String key, String form) {
    return node.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.url("/sandbox/stripe/_test/webhooks")))
        .header("Authorization", "Bearer " + key).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(form))).statusCode();
  }

  /** The note of the event's first logged delivery, once there is one (bounded wait). */
  private static String awaitNote(TestGateway node, String eventId) {
    return Eventually.eventually("a delivery of " + eventId + " was logged",
        () -> node.sql("SELECT note FROM sandbox_stripe.deliveries WHERE event_id = '" + eventId + "'"),
        rows -> rows.size() > 0).iterator().next().getString(0);
  }

  @Test
  void signedDeliveryIsRetriedAfterAFailureAndVerifiesWithStripeJava() throws Exception {
    int port = FreePorts.next();
    BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
    AtomicInteger calls = new AtomicInteger();
    Vertx receiver = Vertx.vertx();
    HttpServer server = receiver.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      int status = calls.incrementAndGet() == 1 ? 500 : 200;
      deliveries.add(new Delivery(body.toString(), request.getHeader("Stripe-Signature"), status));
      request.response().setStatusCode(status).end();
    }));
    TestGateway.await(server.listen(port, "127.0.0.1"));
    Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_STRIPE_WEBHOOK_URL", "http://127.0.0.1:" + port + "/hook");
    try (TestGateway node = TestGateway.start(settings)) {
      String secret = node.gateway().config().stripe().webhookSecret();
      StripeClient stripe = StripeClient.builder().setApiKey(node.gateway().config().stripe().secretKey())
          .setApiBase(node.url("/sandbox/stripe")).build();
      PaymentIntent intent = stripe.paymentIntents().create(PaymentIntentCreateParams.builder().setAmount(2100L)
          .setCurrency("usd").setPaymentMethod("pm_card_visa").setConfirm(true).build());

      Delivery failed = next(deliveries);
      assertEquals(500, failed.answeredWith());
      Event first = Webhook.constructEvent(failed.payload(), failed.signature(), secret);
      Delivery retried = deliveriesOf(first.getId(), deliveries);
      assertEquals(200, retried.answeredWith());
      assertEquals(failed.payload(), retried.payload(), "the same event is sent again");

      Event event = Webhook.constructEvent(retried.payload(), retried.signature(), secret);
      assertEquals(com.stripe.Stripe.API_VERSION, event.getApiVersion());
      assertTrue(event.getDataObjectDeserializer().getObject().isPresent(), "deserializes into a typed object");
      assertThrows(SignatureVerificationException.class,
          () -> Webhook.constructEvent(retried.payload(), retried.signature(), "whsec_someone_else"));

      Delivery succeeded = deliveriesOfType("payment_intent.succeeded", deliveries, secret);
      PaymentIntent delivered = (PaymentIntent) Webhook.constructEvent(succeeded.payload(), succeeded.signature(), secret)
          .getDataObjectDeserializer().getObject().orElseThrow();
      assertEquals(intent.getId(), delivered.getId());
      // an attempt is logged once its answer is in, which may be after the receiver saw the next
      String attempts = "SELECT count(*) FROM sandbox_stripe.deliveries WHERE event_id = '" + first.getId() + "'";
      Eventually.eventually("both attempts logged", () -> node.sql(attempts).iterator().next().getLong(0), n -> n >= 2);
      assertEquals(2, node.sql(attempts).iterator().next().getLong(0), "each delivery attempt is logged, once");
    } finally {
      TestGateway.await(receiver.close());
    }
  }

  /** Deliveries seen so far, so a later search can find one an earlier search passed over. */
  private final List<Delivery> seen = new ArrayList<>();
  /** Every delivery received, never removed. */
  private final List<Delivery> all = new ArrayList<>();

  private Delivery await(BlockingQueue<Delivery> deliveries, Predicate<Delivery> wanted) throws InterruptedException {
    for (int i = 0; ; i++) {
      for (Delivery delivery : seen) {
        if (wanted.test(delivery)) {
          seen.remove(delivery);
          return delivery;
        }
      }
      Delivery delivery = deliveries.poll(30, TimeUnit.SECONDS);
      assertNotNull(delivery, "the expected webhook delivery did not arrive");
      seen.add(delivery);
      all.add(delivery);
    }
  }

  private Delivery next(BlockingQueue<Delivery> deliveries) throws InterruptedException {
    return await(deliveries, delivery -> true);
  }

  private Delivery deliveriesOf(String eventId, BlockingQueue<Delivery> deliveries) throws InterruptedException {
    return await(deliveries, delivery -> delivery.payload().contains("\"id\":\"" + eventId + "\""));
  }

  /** A successful delivery of an event of this type, including ones already looked at. */
  private Delivery deliveriesOfType(String type, BlockingQueue<Delivery> deliveries, String secret)
      throws InterruptedException {
    Predicate<Delivery> wanted = delivery -> delivery.answeredWith() == 200
        && delivery.payload().contains("\"type\":\"" + type + "\"");
    for (Delivery delivery : all) {
      if (wanted.test(delivery)) {
        return delivery;
      }
    }
    return await(deliveries, wanted);
  }
}
