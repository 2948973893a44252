package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/** Confirms, captures, cancels and refunds payment intents, with the test cards' outcomes. */
final class Charges {
  private static final Set<String> CANCELABLE =
      Set.of("requires_payment_method", "requires_confirmation", "requires_action", "requires_capture");
  private final StripeStore store;
  private final BalanceTransactions balance;
  private final String authenticationBase;

  /** {@code authenticationBase}: where a card that needs authentication is sent (3-D Secure page). */
  Charges(StripeStore store, String authenticationBase) {
    this.store = store;
    this.balance = new BalanceTransactions(store);
    this.authenticationBase = authenticationBase;
  }

  /** The same charges working through {@code other} (one request's transaction). */
  Charges on(StripeStore other) {
    return new Charges(other, authenticationBase);
  }

  /** The balance transactions of charges and refunds (also what expands ids for {@code expand[]}). */
  BalanceTransactions balance() {
    return balance;
  }

  /** A stored payment method, or a fresh one for Stripe's test ids such as {@code pm_card_visa}. */
  Future<JsonObject> paymentMethod(String id, String customer) {
    String number = TestCards.TEST_PAYMENT_METHODS.get(id);
    if (number != null) {
      return store.insert(Objects.paymentMethod(number, 12, java.time.Year.now().getValue() + 3, null, customer));
    }
    return store.get(id, "payment_method", "payment_method");
  }

  /**
   * Charges the intent's payment method. Declines leave the intent in
   * {@code requires_payment_method} with {@code last_payment_error}, record
   * {@code payment_intent.payment_failed} and fail with Stripe's card error.
   */
  Future<JsonObject> confirm(JsonObject intent, boolean offSession) {
    String status = intent.getString("status");
    if (!status.equals("requires_confirmation") && !status.equals("requires_payment_method")) {
      return Future.failedFuture(StripeError.unexpectedState("This PaymentIntent's status is " + status
          + ", but it must be requires_payment_method or requires_confirmation to be confirmed."));
    }
    if (intent.getString("payment_method") == null) {
      return Future.failedFuture(StripeError.invalidRequest(
          "You cannot confirm this PaymentIntent because it's missing a payment method.", "payment_method"));
    }
    intent.put(Objects.PRIVATE, intent.getJsonObject(Objects.PRIVATE, new JsonObject()).put("from_status", status));
    return store.get(intent.getString("payment_method"), "payment_method", "payment_method")
        .compose(method -> charge(intent, TestCards.outcome(TestCards.numberOf(method)), offSession));
  }

  private Future<JsonObject> charge(JsonObject intent, TestCards.Outcome outcome, boolean offSession) {
    return switch (outcome) {
      case SUCCEEDS -> succeed(intent);
      case DECLINED, CHARGE_FAILS -> fail(intent, "card_declined", "generic_decline", "Your card was declined.");
      case INSUFFICIENT_FUNDS -> fail(intent, "card_declined", "insufficient_funds", "Your card has insufficient funds.");
      case REQUIRES_AUTHENTICATION -> offSession
          ? fail(intent, "authentication_required", "authentication_required",
              "Your card was declined. This transaction requires authentication.")
          : requireAction(intent);
    };
  }

  /** Completes a charge that passed (or needed no) authentication. */
  Future<JsonObject> succeed(JsonObject intent) {
    String before = previousStatus(intent);
    boolean manual = "manual".equals(intent.getString("capture_method"));
    JsonObject charge = Objects.charge(intent, !manual);
    intent.put("latest_charge", charge.getString("id")).putNull("last_payment_error").putNull("next_action");
    if (manual) {
      intent.put("status", "requires_capture").put("amount_capturable", intent.getLong("amount"));
    } else {
      intent.put("status", "succeeded").put("amount_received", intent.getLong("amount"));
    }
    Future<?> settled = manual ? Future.succeededFuture() : balance.ofCharge(charge);
    return settled.compose(v -> store.updateIf(intent, before)).compose(v -> store.insert(charge))
        .compose(v -> manual ? store.event("payment_intent.amount_capturable_updated", Objects.visible(intent))
            : store.event("payment_intent.succeeded", Objects.visible(intent)))
        .map(intent);
  }

  /** A declined charge: the intent waits for another payment method, the event is recorded. */
  Future<JsonObject> fail(JsonObject intent, String code, String declineCode, String message) {
    JsonObject error = new JsonObject().put("type", "card_error").put("code", code).put("decline_code", declineCode)
        .put("message", message).put("payment_method", new JsonObject().put("id", intent.getString("payment_method")));
    String before = previousStatus(intent);
    intent.put("status", "requires_payment_method").put("last_payment_error", error).putNull("next_action");
    return store.updateIf(intent, before)
        .compose(v -> store.event("payment_intent.payment_failed", Objects.visible(intent)))
        .compose(v -> Future.failedFuture(StripeError.card(code, declineCode, message, Objects.visible(intent))));
  }

  private Future<JsonObject> requireAction(JsonObject intent) {
    String before = previousStatus(intent);
    intent.put("status", "requires_action").put("next_action", new JsonObject().put("type", "redirect_to_url")
        .put("redirect_to_url", new JsonObject()
            .put("url", authenticationBase + "/" + intent.getString("id"))
            .putNull("return_url")));
    return store.updateIf(intent, before)
        .compose(v -> store.event("payment_intent.requires_action", Objects.visible(intent)))
        .map(intent);
  }

  /** The status the intent had when this request read it (what a compare-and-set expects). */
  private static String previousStatus(JsonObject intent) {
    JsonObject hidden = intent.getJsonObject(Objects.PRIVATE);
    String remembered = hidden == null ? null : (String) hidden.remove("from_status");
    return remembered != null ? remembered : intent.getString("status");
  }

  Future<JsonObject> capture(JsonObject intent, Long amountToCapture) {
    if (!"requires_capture".equals(intent.getString("status"))) {
      return Future.failedFuture(StripeError.unexpectedState("This PaymentIntent could not be captured because it has a"
          + " status of " + intent.getString("status") + ". Only a PaymentIntent with one of the following statuses may"
          + " be captured: requires_capture."));
    }
    long amount = amountToCapture == null ? intent.getLong("amount") : amountToCapture;
    if (amount < 1 || amount > intent.getLong("amount")) {
      return Future.failedFuture(StripeError.invalidRequest("amount_to_capture must be between 1 and the amount.",
          "amount_to_capture"));
    }
    return store.get(intent.getString("latest_charge"), "charge", "charge").compose(charge -> {
      charge.put("captured", true).put("amount_captured", amount);
      intent.put("status", "succeeded").put("amount_received", amount).put("amount_capturable", 0);
      return balance.ofCharge(charge).compose(v -> store.updateIf(intent, "requires_capture"))
          .compose(v -> store.update(charge))
          .compose(v -> store.event("payment_intent.succeeded", Objects.visible(intent))).map(intent);
    });
  }

  Future<JsonObject> cancel(JsonObject intent, String reason) {
    if (!CANCELABLE.contains(intent.getString("status"))) {
      return Future.failedFuture(StripeError.unexpectedState("You cannot cancel this PaymentIntent because it has a"
          + " status of " + intent.getString("status") + "."));
    }
    String before = intent.getString("status");
    intent.put("status", "canceled").put("canceled_at", StripeStore.now()).put("cancellation_reason", reason)
        .put("amount_capturable", 0);
    return store.updateIf(intent, before).compose(v -> store.event("payment_intent.canceled", Objects.visible(intent)))
        .map(intent);
  }

  /** Refunds all that is left, or {@code amount}, of the intent's charge. */
  Future<JsonObject> refund(JsonObject intent, Long amount, String reason, JsonObject metadata) {
    if (!"succeeded".equals(intent.getString("status")) || intent.getString("latest_charge") == null) {
      return Future.failedFuture(StripeError.invalidRequest("This PaymentIntent does not have a successful charge to"
          + " refund.", "payment_intent"));
    }
    return store.get(intent.getString("latest_charge"), "charge", "charge").compose(charge -> {
      long remaining = charge.getLong("amount_captured") - charge.getLong("amount_refunded");
      long refundAmount = amount == null ? remaining : amount;
      if (refundAmount < 1 || refundAmount > remaining) {
        return Future.failedFuture(StripeError.invalidRequest("Refund amount (" + refundAmount + ") is greater than"
            + " unrefunded amount on charge (" + remaining + ")", "amount"));
      }
      JsonObject refund = Objects.base(StripeStore.newId("re"), "refund")
          .put("amount", refundAmount)
          .put("currency", charge.getString("currency"))
          .put("charge", charge.getString("id"))
          .put("payment_intent", intent.getString("id"))
          .put("reason", reason)
          .put("metadata", metadata)
          .put("status", "succeeded");
      long refunded = charge.getLong("amount_refunded") + refundAmount;
      charge.put("amount_refunded", refunded).put("refunded", refunded == charge.getLong("amount_captured"));
      return balance.ofRefund(refund).compose(v -> store.insert(refund)).compose(v -> store.update(charge))
          .compose(v -> store.event("refund.created", refund))
          .compose(v -> store.event("charge.refunded", charge))
          .map(refund);
    });
  }
}
