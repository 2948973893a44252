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
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
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

  /** The account's Stripe customer and saved card. */
  record Card(String customer, String paymentMethodId, String brand, String last4) {}

  void bind(RouterBuilder api) {
    api.getRoute("listPaymentMethods").addHandler(this::list);
    api.getRoute("setupPaymentMethod").addHandler(this::setup);
    api.getRoute("deletePaymentMethod").addHandler(this::delete);
  }

  Future<Optional<Card>> of(String accountId) {
    return pool.preparedQuery("SELECT customer_id, default_payment_method, card_brand, card_last4 FROM stripe_customers"
            + " WHERE account_id = $1 AND default_payment_method IS NOT NULL").execute(Tuple.of(accountId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(card(rows.iterator().next())));
  }

  private static Card card(Row row) {
    return new Card(row.getString("customer_id"), row.getString("default_payment_method"), row.getString("card_brand"),
        row.getString("card_last4"));
  }

  /** Records the card a completed setup saved, replacing the one before. */
  static Future<Void> save(SqlConnection tx, StripeGateway.SavedCard card) {
    return tx.preparedQuery("UPDATE stripe_customers SET default_payment_method = $2, card_brand = $3, card_last4 = $4,"
            + " card_exp_month = $5, card_exp_year = $6 WHERE customer_id = $1")
        .execute(Tuple.of(card.customer(), card.paymentMethodId(), card.brand(), card.last4(),
            card.expMonth() == null ? null : card.expMonth().intValue(),
            card.expYear() == null ? null : card.expYear().intValue()))
        .mapEmpty();
  }

  private void list(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    pool.preparedQuery("SELECT default_payment_method, card_brand, card_last4, card_exp_month, card_exp_year"
            + " FROM stripe_customers WHERE account_id = $1 AND default_payment_method IS NOT NULL")
        .execute(Tuple.of(caller.accountId()))
        .onSuccess(rows -> {
          JsonArray data = new JsonArray();
          rows.forEach(row -> data.add(new JsonObject().put("id", row.getString(0)).put("brand", row.getString(1))
              .put("last4", row.getString(2)).put("exp_month", row.getInteger(3)).put("exp_year", row.getInteger(4))));
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
          return stripe.detach(id).compose(v -> pool.preparedQuery("UPDATE stripe_customers SET"
              + " default_payment_method = NULL, card_brand = NULL, card_last4 = NULL, card_exp_month = NULL,"
              + " card_exp_year = NULL WHERE account_id = $1 AND default_payment_method = $2")
              .execute(Tuple.of(caller.accountId(), id)));
        })
        .onSuccess(v -> ctx.response().setStatusCode(204).end())
        .onFailure(ctx::fail);
  }
}
