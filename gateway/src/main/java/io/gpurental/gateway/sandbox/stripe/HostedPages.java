package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The pages a payer sees: {@code /sandbox/stripe/checkout/{session}} (card form with Stripe-like
 * validation) and {@code /sandbox/stripe/authenticate/{payment_intent}} (the 3-D Secure step).
 */
final class HostedPages {
  private final StripeStore store;
  private final Checkout checkout;
  private final Charges charges;

  HostedPages(StripeStore store, Checkout checkout, Charges charges) {
    this.store = store;
    this.checkout = checkout;
    this.charges = charges;
  }

  void mount(Router router, String base) {
    router.get(base + "/checkout/:id").handler(ctx -> session(ctx).onSuccess(session ->
        html(ctx, Checkout.payable(session) ? CheckoutPage.form(session, null, new JsonObject()) : closed(session))));
    router.post(base + "/checkout/:id").handler(this::pay);
    router.get(base + "/authenticate/:id").handler(ctx -> intent(ctx).onSuccess(intent ->
        html(ctx, "requires_action".equals(intent.getString("status"))
            ? CheckoutPage.authenticate(intent.getString("id"), intent.getLong("amount"), intent.getString("currency"))
            : CheckoutPage.message("Nothing to authenticate", "This payment does not need authentication."))));
    router.post(base + "/authenticate/:id").handler(this::authenticate);
  }

  private void pay(RoutingContext ctx) {
    MultiMap form = ctx.request().formAttributes();
    JsonObject entered = new JsonObject().put("card_number", form.get("card_number")).put("expiry", form.get("expiry"))
        .put("name", form.get("name"));
    session(ctx).onSuccess(session -> {
      if (!Checkout.payable(session)) {
        html(ctx, closed(session));
        return;
      }
      String problem = CardForm.problem(form);
      if (problem != null) {
        html(ctx, CheckoutPage.form(session, problem, entered));
        return;
      }
      CardForm card = CardForm.of(form);
      checkout.pay(session, card.number(), card.month(), card.year(), card.name()).onSuccess(paid -> {
        if ("complete".equals(paid.getString("status"))) {
          redirect(ctx, success(paid));
        } else {
          // the card needs authentication: on to the 3-D Secure step
          redirect(ctx, ctx.request().path().replace("/checkout/" + paid.getString("id"),
              "/authenticate/" + paid.getString("payment_intent")));
        }
      }).onFailure(failure -> html(ctx, CheckoutPage.form(session, failure.getMessage(), entered)));
    });
  }

  private void authenticate(RoutingContext ctx) {
    boolean complete = "complete".equals(ctx.request().getFormAttribute("decision"));
    intent(ctx).onSuccess(intent -> {
      if (!"requires_action".equals(intent.getString("status"))) {
        html(ctx, CheckoutPage.message("Nothing to authenticate", "This payment does not need authentication."));
        return;
      }
      String sessionId = intent.getJsonObject(Objects.PRIVATE, new JsonObject()).getString("checkout_session");
      Future<JsonObject> outcome = complete ? charges.succeed(intent)
          : charges.fail(intent, "payment_intent_authentication_failure", null,
              "We are unable to authenticate your payment method. Please choose a different payment method and try again.");
      outcome.onComplete(result -> {
        if (sessionId == null) {
          html(ctx, result.succeeded()
              ? CheckoutPage.message("Payment authenticated", "You can close this page.")
              : CheckoutPage.message("Authentication failed", result.cause().getMessage()));
          return;
        }
        store.get(sessionId, "checkout.session", "checkout_session").onSuccess(session -> {
          if (result.succeeded()) {
            checkout.complete(session).onSuccess(done -> redirect(ctx, success(done)))
                .onFailure(failure -> html(ctx, CheckoutPage.message("Payment failed", failure.getMessage())));
          } else {
            html(ctx, CheckoutPage.form(session, result.cause().getMessage(), new JsonObject()));
          }
        });
      });
    });
  }

  private Future<JsonObject> session(RoutingContext ctx) {
    return store.get(ctx.pathParam("id"), "checkout.session", "checkout_session").onFailure(failure -> {
      ctx.response().setStatusCode(404);
      html(ctx, CheckoutPage.message("Checkout not found", "This checkout link is not valid."));
    });
  }

  private Future<JsonObject> intent(RoutingContext ctx) {
    return store.get(ctx.pathParam("id"), "payment_intent", "payment_intent").onFailure(failure -> {
      ctx.response().setStatusCode(404);
      html(ctx, CheckoutPage.message("Payment not found", "This link is not valid."));
    });
  }

  private static String closed(JsonObject session) {
    return "complete".equals(session.getString("status"))
        ? CheckoutPage.message("Already paid", "This Checkout Session is complete.")
        : CheckoutPage.message("Checkout expired", "This Checkout Session has expired and can no longer be paid.");
  }

  private static String success(JsonObject session) {
    return session.getString("success_url").replace("{CHECKOUT_SESSION_ID}", session.getString("id"));
  }

  private static void redirect(RoutingContext ctx, String location) {
    ctx.response().setStatusCode(303).putHeader("Location", location).end();
  }

  private static void html(RoutingContext ctx, String page) {
    if (!ctx.response().ended()) {
      ctx.response().putHeader("Content-Type", "text/html; charset=utf-8").putHeader("Cache-Control", "no-store")
          .end(page);
    }
  }
}
