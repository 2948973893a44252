package io.gpurental.gateway.payments;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import java.util.Optional;

/**
 * {@code /payment-methods}: one saved card per account, saved in a browser through Checkout in
 * setup mode (recorded when Stripe reports the completed setup) and charged off-session later.
 */
final class SavedCards {
  private final Pool pool;
  private final StripeGateway stripe;
  private final String publicBase;

  SavedCards(Pool pool, StripeGateway stripe, String publicBase) {
    this.pool = pool;
    this.stripe = stripe;
    this.publicBase = publicBase;
  }

  void bind(RouterBuilder api) {
    api.getRoute("listPaymentMethods").addHandler(this::list);
    api.getRoute("setupPaymentMethod").addHandler(this::setup);
    api.getRoute("deletePaymentMethod").addHandler(this::delete);
  }

  /** The account's Stripe customer and saved card, if it has one. */
  Future<Optional<PaymentRepository.Card>> of(String accountId) {
    return PaymentRepository.cardOf(pool, accountId);
  }

  private void list(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    PaymentRepository.listCards(pool, caller.accountId())
        .onSuccess(cards -> {
          JsonArray data = new JsonArray();
          cards.forEach(card -> data.add(new JsonObject().put("id", card.paymentMethodId()).put("brand", card.brand())
              .put("last4", card.last4()).put("exp_month", card.expMonth()).put("exp_year", card.expYear())));
          ctx.json(new JsonObject().put("data", data));
        })
        .onFailure(ctx::fail);
  }

  private void setup(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    JsonObject body = ctx.body().length() > 0 ? ctx.body().asJsonObject() : new JsonObject();
    String back = publicBase + body.getString("return_to", "/account");
    stripe.setupSession(Ids.newId("setup"), caller.accountId(), back + (back.contains("?") ? "&" : "?") + "setup=saved",
            back)
        .onSuccess(url -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
            .end(new JsonObject().put("checkout_url", url).encode()))
        .onFailure(ctx::fail);
  }

  private void delete(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    String id = ctx.pathParam("payment_method_id");
    of(caller.accountId())
        .compose(card -> {
          if (card.isEmpty() || !card.get().paymentMethodId().equals(id)) {
            return Future.failedFuture(new NotFound("You have no saved card " + id + "."));
          }
          return stripe.detach(id).compose(v -> PaymentRepository.forgetCard(pool, caller.accountId(), id));
        })
        .onSuccess(v -> ctx.response().setStatusCode(204).end())
        .onFailure(ctx::fail);
  }
}
