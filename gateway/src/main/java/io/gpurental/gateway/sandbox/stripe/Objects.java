package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Builders for the Stripe object shapes the sandbox returns. */
final class Objects {
  /** A stored object's sandbox-only data (e.g. a test card's number); removed from every answer. */
  static final String PRIVATE = "_sandbox";

  private Objects() {}

  static JsonObject visible(JsonObject object) {
    JsonObject copy = object.copy();
    copy.remove(PRIVATE);
    return copy;
  }

  static JsonObject base(String id, String type) {
    return new JsonObject().put("id", id).put("object", type).put("created", StripeStore.now()).put("livemode", false);
  }

  static JsonObject metadata(JsonObject params) {
    return params.getJsonObject("metadata", new JsonObject());
  }

  static JsonObject customer(JsonObject params) {
    return base(StripeStore.newId("cus"), "customer")
        .put("email", params.getString("email"))
        .put("name", params.getString("name"))
        .put("description", params.getString("description"))
        .put("metadata", metadata(params))
        .put("invoice_settings", new JsonObject().putNull("default_payment_method").putNull("custom_fields")
            .putNull("footer").putNull("rendering_options"));
  }

  static JsonObject paymentMethod(String number, int month, int year, String name, String customer) {
    return base(StripeStore.newId("pm"), "payment_method")
        .put("type", "card")
        .put("card", TestCards.card(number, month, year))
        .put("billing_details", new JsonObject().put("name", name).putNull("email").putNull("phone")
            .putNull("address"))
        .put("customer", customer)
        .put("metadata", new JsonObject())
        .put("allow_redisplay", "unspecified")
        .put(PRIVATE, new JsonObject().put("number", number));
  }

  static JsonObject paymentIntent(JsonObject params) {
    String id = StripeStore.newId("pi");
    return base(id, "payment_intent")
        .put("amount", params.getLong("amount"))
        .put("amount_capturable", 0)
        .put("amount_received", 0)
        .put("currency", params.getString("currency"))
        .put("customer", params.getString("customer"))
        .put("description", params.getString("description"))
        .put("payment_method", params.getString("payment_method"))
        .put("capture_method", params.getString("capture_method", "automatic_async"))
        .put("confirmation_method", "automatic")
        .put("client_secret", id + "_secret_" + StripeStore.newId("s").substring(2))
        .put("metadata", metadata(params))
        .put("payment_method_types", new JsonArray().add("card"))
        .putNull("latest_charge")
        .putNull("last_payment_error")
        .putNull("next_action")
        .putNull("canceled_at")
        .putNull("cancellation_reason")
        .put("status", params.getString("payment_method") == null ? "requires_payment_method" : "requires_confirmation");
  }

  static JsonObject charge(JsonObject paymentIntent, boolean captured) {
    long amount = paymentIntent.getLong("amount");
    return base(StripeStore.newId("ch"), "charge")
        .put("amount", amount)
        .put("amount_captured", captured ? amount : 0)
        .put("amount_refunded", 0)
        .put("currency", paymentIntent.getString("currency"))
        .put("customer", paymentIntent.getString("customer"))
        .put("payment_intent", paymentIntent.getString("id"))
        .put("payment_method", paymentIntent.getString("payment_method"))
        .put("metadata", paymentIntent.getJsonObject("metadata"))
        .put("paid", true)
        .putNull("balance_transaction")
        .put("captured", captured)
        .put("refunded", false)
        .put("status", "succeeded");
  }

  static JsonObject list(JsonArray data, String url) {
    return new JsonObject().put("object", "list").put("data", data).put("has_more", false).put("url", url);
  }
}
