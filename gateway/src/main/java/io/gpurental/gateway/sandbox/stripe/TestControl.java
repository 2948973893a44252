package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.Set;

/**
 * The sandbox's test-control API under {@code /sandbox/stripe/_test} (the installation's fault-control
 * key, not the sandbox Stripe key): complete a checkout session with a test card exactly as the hosted page would, change
 * how webhooks are delivered (drop, duplicate, delay, reorder), and list deliveries.
 */
final class TestControl {
  private static final Set<String> MODES = Set.of("normal", "drop", "duplicate", "delay", "reorder");
  private final StripeHttp http;
  private final Pool pool;

  TestControl(StripeHttp http, Pool pool) {
    this.http = http;
    this.pool = pool;
  }

  void mount(Router router, String base) {
    router.post(base + "/checkout/sessions/:id/complete").handler(http.handle((p, ctx, o) -> complete(ctx.pathParam("id"), p, o)));
    router.post(base + "/webhooks").handler(http.handle((p, ctx, o) -> webhookMode(p)));
    router.get(base + "/deliveries").handler(http.handle((p, ctx, o) -> deliveries(p.getString("event"))));
  }

  /** {@code card} (required), {@code authentication=complete|fail} for cards that ask for it. */
  private static Future<JsonObject> complete(String sessionId, JsonObject params, StripeOps o) {
    String number = TestCards.digits(params.getString("card"));
    if (number.isEmpty()) {
      throw StripeError.missingParam("card");
    }
    MultiMap form = MultiMap.caseInsensitiveMultiMap().add("card_number", number).add("expiry", "12 / 34")
        .add("cvc", "123").add("name", "Sandbox Test");
    return o.store().get(sessionId, "checkout.session", "checkout_session").compose(session -> {
      if (!Checkout.payable(session)) {
        return Future.failedFuture(StripeError.invalidRequest("This Checkout Session is no longer available: its"
            + " status is " + session.getString("status") + ".", null));
      }
      String problem = CardForm.problem(form);
      if (problem != null) {
        return Future.failedFuture(StripeError.invalidRequest(problem, "card"));
      }
      return o.checkout().pay(session, number, 12, 2034, "Sandbox Test").compose(paid -> {
        if ("complete".equals(paid.getString("status"))) {
          return Future.succeededFuture(paid);
        }
        return o.store().get(paid.getString("payment_intent"), "payment_intent", "payment_intent").compose(intent ->
            "fail".equals(params.getString("authentication"))
                ? o.charges().fail(intent, "payment_intent_authentication_failure", null,
                    "We are unable to authenticate your payment method.").map(paid)
                : o.charges().succeed(intent).compose(v -> o.checkout().complete(paid)));
      });
    });
  }

  private Future<JsonObject> webhookMode(JsonObject params) {
    String mode = params.getString("mode", "normal");
    if (!MODES.contains(mode)) {
      throw StripeError.invalidRequest("mode must be one of " + MODES, "mode");
    }
    int delay = Integer.parseInt(params.getString("delay_seconds", "0"));
    if (delay < 0 || delay > 3600) {
      throw StripeError.invalidRequest("delay_seconds must be between 0 and 3600", "delay_seconds");
    }
    return pool.preparedQuery("UPDATE sandbox_stripe.webhook_control SET mode = $1, delay_seconds = $2 WHERE id = 1")
        .execute(Tuple.of(mode, delay))
        .map(v -> new JsonObject().put("object", "webhook_control").put("mode", mode).put("delay_seconds", delay));
  }

  private Future<JsonObject> deliveries(String eventId) {
    return pool.preparedQuery("SELECT event_id, attempt, at, status, error, note FROM sandbox_stripe.deliveries"
            + " WHERE $1::text IS NULL OR event_id = $1 ORDER BY id DESC LIMIT 100")
        .execute(Tuple.of(eventId)).map(rows -> {
          JsonArray data = new JsonArray();
          rows.forEach(row -> data.add(new JsonObject()
              .put("event", row.getString("event_id"))
              .put("attempt", row.getInteger("attempt"))
              .put("at", row.getOffsetDateTime("at").toInstant().toString())
              .put("status", row.getInteger("status"))
              .put("error", row.getString("error"))
              .put("note", row.getString("note"))));
          return Objects.list(data, "/_test/deliveries");
        });
  }
}
