package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The subset of the Stripe API the gateway calls: customers, payment methods, payment intents,
 * refunds, checkout sessions, setup intents, balance transactions and events, under
 * {@code /sandbox/stripe/v1}; retrievals honour {@code expand[]}.
 */
final class StripeApi {
  private final StripeHttp http;

  StripeApi(StripeHttp http) {
    this.http = http;
  }

  void mount(Router router, String base) {
    router.post(base + "/customers").handler(http.handle((p, ctx, o) -> o.store().insert(Objects.customer(p))));
    router.get(base + "/customers/:id").handler(http.handle((p, ctx, o) -> customer(ctx, o)));
    router.post(base + "/customers/:id").handler(http.handle(StripeApi::updateCustomer));
    router.get(base + "/customers/:id/payment_methods").handler(http.handle((p, ctx, o) ->
        o.store().list("payment_method", ctx.pathParam("id"), limit(p), p.getString("starting_after"),
            "/v1/customers/" + ctx.pathParam("id") + "/payment_methods")));
    router.get(base + "/payment_methods").handler(http.handle((p, ctx, o) ->
        o.store().list("payment_method", p.getString("customer"), limit(p), p.getString("starting_after"), "/v1/payment_methods")));
    router.get(base + "/payment_methods/:id").handler(http.handle((p, ctx, o) ->
        o.store().get(ctx.pathParam("id"), "payment_method", "payment_method")));
    router.post(base + "/payment_methods/:id/attach").handler(http.handle((p, ctx, o) -> attach(ctx, p.getString("customer"), o)));
    router.post(base + "/payment_methods/:id/detach").handler(http.handle((p, ctx, o) -> attach(ctx, null, o)));
    router.post(base + "/payment_intents").handler(http.handle(StripeApi::createIntent));
    router.get(base + "/payment_intents/:id").handler(http.handle((p, ctx, o) -> expanded(intent(ctx, o), p, o)));
    router.post(base + "/payment_intents/:id/confirm").handler(http.handle(StripeApi::confirmIntent));
    router.post(base + "/payment_intents/:id/capture").handler(http.handle((p, ctx, o) -> intent(ctx, o)
        .compose(intent -> o.charges().capture(intent, p.containsKey("amount_to_capture")
            ? Long.valueOf(p.getString("amount_to_capture")) : null))));
    router.post(base + "/payment_intents/:id/cancel").handler(http.handle((p, ctx, o) -> intent(ctx, o)
        .compose(intent -> o.charges().cancel(intent, p.getString("cancellation_reason", "requested_by_customer")))));
    router.post(base + "/refunds").handler(http.handle(StripeApi::refund));
    router.get(base + "/refunds/:id").handler(http.handle((p, ctx, o) ->
        expanded(o.store().get(ctx.pathParam("id"), "refund", "refund"), p, o)));
    router.get(base + "/charges/:id").handler(http.handle((p, ctx, o) ->
        expanded(o.store().get(ctx.pathParam("id"), "charge", "charge"), p, o)));
    router.get(base + "/balance_transactions/:id").handler(http.handle((p, ctx, o) ->
        expanded(o.store().get(ctx.pathParam("id"), "balance_transaction", "id"), p, o)));
    router.post(base + "/checkout/sessions").handler(http.handle((p, ctx, o) -> o.checkout().create(p)));
    router.get(base + "/checkout/sessions/:id").handler(http.handle((p, ctx, o) ->
        o.store().get(ctx.pathParam("id"), "checkout.session", "checkout_session")));
    router.post(base + "/checkout/sessions/:id/expire").handler(http.handle((p, ctx, o) -> o.checkout().expire(ctx.pathParam("id"))));
    router.get(base + "/setup_intents/:id").handler(http.handle((p, ctx, o) ->
        o.store().get(ctx.pathParam("id"), "setup_intent", "setup_intent")));
    router.get(base + "/events").handler(http.handle((p, ctx, o) ->
        o.store().listEvents(p.getString("type"), limit(p), p.getString("starting_after"))));
    router.get(base + "/events/:id").handler(http.handle((p, ctx, o) -> o.store().getEvent(ctx.pathParam("id"))));
  }

  private static Future<JsonObject> expanded(Future<JsonObject> object, JsonObject params, StripeOps o) {
    return object.compose(found -> o.charges().balance().expand(found, array(params, "expand")));
  }

  private static Future<JsonObject> customer(RoutingContext ctx, StripeOps o) {
    return o.store().get(ctx.pathParam("id"), "customer", "customer");
  }

  private static Future<JsonObject> intent(RoutingContext ctx, StripeOps o) {
    return o.store().get(ctx.pathParam("id"), "payment_intent", "payment_intent");
  }

  private static Future<JsonObject> updateCustomer(JsonObject params, RoutingContext ctx, StripeOps o) {
    return customer(ctx, o).compose(customer -> {
      for (String field : new String[] {"email", "name", "description"}) {
        if (params.containsKey(field)) {
          customer.put(field, params.getString(field));
        }
      }
      if (params.containsKey("metadata")) {
        customer.getJsonObject("metadata").mergeIn(params.getJsonObject("metadata"));
      }
      JsonObject settings = params.getJsonObject("invoice_settings");
      String defaultMethod = settings == null ? null : settings.getString("default_payment_method");
      if (defaultMethod == null) {
        return o.store().update(customer);
      }
      return o.store().get(defaultMethod, "payment_method", "invoice_settings[default_payment_method]")
          .compose(method -> {
            customer.getJsonObject("invoice_settings").put("default_payment_method", method.getString("id"));
            return o.store().update(customer);
          });
    });
  }

  private static Future<JsonObject> attach(RoutingContext ctx, String customer, StripeOps o) {
    return o.store().get(ctx.pathParam("id"), "payment_method", "payment_method").compose(method -> {
      Future<JsonObject> owner = customer == null ? Future.succeededFuture(null)
          : o.store().get(customer, "customer", "customer");
      return owner.compose(c -> o.store().update(method.put("customer", customer)))
          .compose(updated -> o.store().event(customer == null ? "payment_method.detached" : "payment_method.attached",
              Objects.visible(updated)).map(updated));
    });
  }

  private static Future<JsonObject> createIntent(JsonObject params, RoutingContext ctx, StripeOps o) {
    if (!params.containsKey("amount")) {
      throw StripeError.missingParam("amount");
    }
    if (!params.containsKey("currency")) {
      throw StripeError.missingParam("currency");
    }
    long amount;
    try {
      amount = Long.parseLong(params.getString("amount"));
    } catch (NumberFormatException e) {
      throw StripeError.invalidRequest("Invalid integer: " + params.getString("amount"), "amount");
    }
    if (amount < 50) {
      throw StripeError.invalidRequest("Amount must be at least 50 cents", "amount");
    }
    JsonObject fields = params.copy().put("amount", amount);
    Future<JsonObject> customer = params.getString("customer") == null ? Future.succeededFuture(null)
        : o.store().get(params.getString("customer"), "customer", "customer");
    return customer.compose(c -> params.getString("payment_method") == null ? Future.succeededFuture((JsonObject) null)
            : o.charges().paymentMethod(params.getString("payment_method"), params.getString("customer")))
        .compose(method -> {
          if (method != null) {
            fields.put("payment_method", method.getString("id"));
          }
          JsonObject intent = Objects.paymentIntent(fields);
          return o.store().insert(intent).compose(stored -> o.store().event("payment_intent.created", Objects.visible(stored)))
              .compose(v -> "true".equals(params.getString("confirm"))
                  ? o.charges().confirm(intent, "true".equals(params.getString("off_session")))
                  : Future.succeededFuture(intent));
        });
  }

  private static Future<JsonObject> confirmIntent(JsonObject params, RoutingContext ctx, StripeOps o) {
    return intent(ctx, o).compose(intent -> {
      String method = params.getString("payment_method");
      Future<JsonObject> chosen = method == null ? Future.succeededFuture(null)
          : o.charges().paymentMethod(method, intent.getString("customer"));
      return chosen.compose(pm -> {
        if (pm != null) {
          intent.put("payment_method", pm.getString("id"));
        }
        return o.charges().confirm(intent, "true".equals(params.getString("off_session")));
      });
    });
  }

  private static Future<JsonObject> refund(JsonObject params, RoutingContext ctx, StripeOps o) {
    String intentId = params.getString("payment_intent");
    Future<JsonObject> intent;
    if (intentId != null) {
      intent = o.store().get(intentId, "payment_intent", "payment_intent");
    } else if (params.getString("charge") != null) {
      intent = o.store().get(params.getString("charge"), "charge", "charge")
          .compose(charge -> o.store().get(charge.getString("payment_intent"), "payment_intent", "payment_intent"));
    } else {
      throw StripeError.missingParam("payment_intent");
    }
    Long amount = params.containsKey("amount") ? Long.valueOf(params.getString("amount")) : null;
    return intent.compose(pi -> o.charges().refund(pi, amount, params.getString("reason"), Objects.metadata(params)));
  }

  private static int limit(JsonObject params) {
    try {
      return Math.max(1, Math.min(100, Integer.parseInt(params.getString("limit", "10"))));
    } catch (NumberFormatException e) {
      throw StripeError.invalidRequest("Invalid integer: " + params.getString("limit"), "limit");
    }
  }

  static JsonArray array(JsonObject params, String name) {
    Object value = params.getValue(name);
    return value instanceof JsonArray array ? array : new JsonArray();
  }
}
