package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Checkout Sessions: created by the API, paid (or set up) on the hosted page, expired. */
final class Checkout {
  private static final long DEFAULT_LIFETIME_SECONDS = 24 * 3600;
  private final StripeStore store;
  private final Charges charges;
  private final String pageBase;

  Checkout(StripeStore store, Charges charges, String pageBase) {
    this.store = store;
    this.charges = charges;
    this.pageBase = pageBase;
  }

  /** The same checkout working through {@code other} and {@code otherCharges} (one request's transaction). */
  Checkout on(StripeStore other, Charges otherCharges) {
    return new Checkout(other, otherCharges, pageBase);
  }

  Future<JsonObject> create(JsonObject params) {
    String mode = params.getString("mode");
    if (mode == null) {
      throw StripeError.missingParam("mode");
    }
    if (!mode.equals("payment") && !mode.equals("setup")) {
      throw StripeError.invalidRequest("Invalid mode: must be one of payment or setup", "mode");
    }
    if (params.getString("success_url") == null) {
      throw StripeError.missingParam("success_url");
    }
    for (String url : new String[] {"success_url", "cancel_url"}) {
      String value = params.getString(url);
      if (value != null && !value.matches("https?://\\S+")) {
        throw StripeError.invalidRequest("Not a valid URL", url);
      }
    }
    JsonArray items = StripeApi.array(params, "line_items");
    if (mode.equals("payment") && items.isEmpty()) {
      throw StripeError.missingParam("line_items");
    }
    long total = 0;
    String currency = params.getString("currency");
    JsonArray lines = new JsonArray();
    for (int i = 0; i < items.size(); i++) {
      JsonObject item = items.getJsonObject(i);
      JsonObject price = item.getJsonObject("price_data");
      if (price == null || price.getString("unit_amount") == null || price.getString("currency") == null) {
        throw StripeError.missingParam("line_items[" + i + "][price_data][unit_amount]");
      }
      long quantity = Long.parseLong(item.getString("quantity", "1"));
      long unit = Long.parseLong(price.getString("unit_amount"));
      currency = price.getString("currency");
      if (!currency.matches("[a-z]{3}") || quantity < 1 || unit < 0) {
        throw StripeError.invalidRequest("Invalid line item " + i, "line_items[" + i + "]");
      }
      total += unit * quantity;
      String name = price.getJsonObject("product_data", new JsonObject()).getString("name", "Item " + (i + 1));
      lines.add(new JsonObject().put("description", name).put("quantity", quantity).put("unit_amount", unit)
          .put("amount_total", unit * quantity).put("currency", currency));
    }
    long now = StripeStore.now();
    long expiresAt = params.containsKey("expires_at") ? Long.parseLong(params.getString("expires_at"))
        : now + DEFAULT_LIFETIME_SECONDS;
    if (expiresAt < now + 1800 || expiresAt > now + DEFAULT_LIFETIME_SECONDS) {
      throw StripeError.invalidRequest("The `expires_at` timestamp must be between 30 minutes and 24 hours from now.",
          "expires_at");
    }
    Future<JsonObject> customer = params.getString("customer") == null ? Future.succeededFuture(null)
        : store.get(params.getString("customer"), "customer", "customer");
    String finalCurrency = currency;
    long amountTotal = total;
    return customer.compose(c -> {
      String id = StripeStore.newId("cs_test");
      JsonObject session = Objects.base(id, "checkout.session")
          .put("mode", mode)
          .put("status", "open")
          .put("payment_status", mode.equals("setup") ? "no_payment_required" : "unpaid")
          .put("url", pageBase + "/" + id)
          .put("success_url", params.getString("success_url"))
          .put("cancel_url", params.getString("cancel_url"))
          .put("client_reference_id", params.getString("client_reference_id"))
          .put("customer", params.getString("customer"))
          .put("metadata", Objects.metadata(params))
          .put("expires_at", expiresAt)
          .put("amount_subtotal", mode.equals("payment") ? amountTotal : null)
          .put("amount_total", mode.equals("payment") ? amountTotal : null)
          .put("currency", finalCurrency)
          .putNull("payment_intent")
          .putNull("setup_intent")
          .put(Objects.PRIVATE, new JsonObject().put("line_items", lines)
              .put("payment_intent_metadata", params.getJsonObject("payment_intent_data", new JsonObject())
                  .getJsonObject("metadata", new JsonObject())));
      return store.insert(session);
    });
  }

  Future<JsonObject> expire(String id) {
    return store.get(id, "checkout.session", "checkout_session").compose(session -> {
      if (!"open".equals(session.getString("status"))) {
        return Future.failedFuture(StripeError.invalidRequest("Only Checkout Sessions with a status in [\"open\"] can"
            + " be expired. This Checkout Session has a status of \"" + session.getString("status") + "\".", null));
      }
      session.put("status", "expired");
      return store.updateIf(session, "open").compose(v -> store.event("checkout.session.expired", Objects.visible(session)))
          .map(session);
    });
  }

  /** Whether the session can still be paid. */
  static boolean payable(JsonObject session) {
    return "open".equals(session.getString("status")) && session.getLong("expires_at") > StripeStore.now();
  }

  /**
   * Pays (or sets up) the session with a card entered on the hosted page. The declines of the
   * test cards fail with their Stripe card errors; a card needing authentication leaves the
   * intent in {@code requires_action} for the confirm/deny step.
   */
  Future<JsonObject> pay(JsonObject session, String number, int month, int year, String name) {
    JsonObject method = Objects.paymentMethod(number, month, year, name, session.getString("customer"));
    return store.insert(method).compose(pm -> session.getString("mode").equals("setup")
        ? setUp(session, pm)
        : charge(session, pm));
  }

  private Future<JsonObject> charge(JsonObject session, JsonObject method) {
    if (session.getString("payment_intent") != null) {
      // a retry after a decline: the session keeps its one payment intent, as Stripe's does
      return store.get(session.getString("payment_intent"), "payment_intent", "payment_intent")
          .compose(intent -> charges.confirm(intent.put("payment_method", method.getString("id")), false))
          .compose(confirmed -> "succeeded".equals(confirmed.getString("status")) ? complete(session)
              : Future.succeededFuture(session));
    }
    JsonObject hidden = session.getJsonObject(Objects.PRIVATE);
    JsonObject intent = Objects.paymentIntent(new JsonObject()
        .put("amount", session.getLong("amount_total"))
        .put("currency", session.getString("currency"))
        .put("customer", session.getString("customer"))
        .put("payment_method", method.getString("id"))
        .put("metadata", hidden.getJsonObject("payment_intent_metadata", new JsonObject())));
    intent.put(Objects.PRIVATE, new JsonObject().put("checkout_session", session.getString("id")));
    session.put("payment_intent", intent.getString("id"));
    return store.insert(intent).compose(v -> store.update(session))
        .compose(v -> charges.confirm(intent, false))
        .compose(confirmed -> "succeeded".equals(confirmed.getString("status")) ? complete(session) : Future.succeededFuture(session));
  }

  private Future<JsonObject> setUp(JsonObject session, JsonObject method) {
    if (TestCards.outcome(TestCards.numberOf(method)) == TestCards.Outcome.DECLINED
        || TestCards.outcome(TestCards.numberOf(method)) == TestCards.Outcome.INSUFFICIENT_FUNDS) {
      return Future.failedFuture(StripeError.card("card_declined", "generic_decline", "Your card was declined.", null));
    }
    JsonObject setupIntent = Objects.base(StripeStore.newId("seti"), "setup_intent")
        .put("customer", session.getString("customer"))
        .put("payment_method", method.getString("id"))
        .put("status", "succeeded")
        .put("usage", "off_session");
    session.put("setup_intent", setupIntent.getString("id"));
    return store.insert(setupIntent)
        .compose(v -> store.event("setup_intent.succeeded", setupIntent))
        .compose(v -> complete(session));
  }

  /** Marks the session paid and complete and records checkout.session.completed. */
  Future<JsonObject> complete(JsonObject session) {
    session.put("status", "complete").put("payment_status", session.getString("mode").equals("setup")
        ? "no_payment_required" : "paid");
    return store.updateIf(session, "open")
        .compose(v -> store.event("checkout.session.completed", Objects.visible(session)))
        .map(session);
  }
}
