package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Stripe's balance transactions: what a charge or a refund did to the account's balance. A
 * captured charge gets one with Stripe's fee for US cards, 2.9 % of the amount (rounded half up
 * to the cent) plus 30¢, in {@code fee_details} as a {@code stripe_fee}; a refund gets one for
 * the negative amount with no fee (Stripe keeps the charge's fee). Also expands ids into the
 * objects they name, as {@code expand[]=latest_charge.balance_transaction} does.
 */
final class BalanceTransactions {
  /** Stripe's standard US card pricing: 2.9 % in tenths of a percent, plus a fixed 30¢. */
  static final long PERCENT_TENTHS = 29;
  static final long FIXED_FEE = 30;
  private final StripeStore store;

  BalanceTransactions(StripeStore store) {
    this.store = store;
  }

  /** Stripe's fee on a card charge of {@code amount} minor units. */
  static long fee(long amount) {
    return (amount * PERCENT_TENTHS + 500) / 1000 + FIXED_FEE;
  }

  /** The balance transaction of a captured charge; the charge gains its id. */
  Future<JsonObject> ofCharge(JsonObject charge) {
    long amount = charge.getLong("amount_captured");
    long fee = fee(amount);
    String currency = charge.getString("currency");
    JsonObject txn = transaction(amount, fee, currency, "charge", charge.getString("id"))
        .put("fee_details", new JsonArray().add(new JsonObject().put("amount", fee).put("currency", currency)
            .put("type", "stripe_fee").put("description", "Stripe processing fees").putNull("application")));
    charge.put("balance_transaction", txn.getString("id"));
    return store.insert(txn);
  }

  /** The balance transaction of a refund: the amount leaves the balance, no fee is returned. */
  Future<JsonObject> ofRefund(JsonObject refund) {
    JsonObject txn = transaction(-refund.getLong("amount"), 0, refund.getString("currency"), "refund",
        refund.getString("id")).put("fee_details", new JsonArray());
    refund.put("balance_transaction", txn.getString("id"));
    return store.insert(txn);
  }

  private static JsonObject transaction(long amount, long fee, String currency, String type, String source) {
    JsonObject txn = Objects.base(StripeStore.newId("txn"), "balance_transaction");
    return txn.put("amount", amount).put("fee", fee).put("net", amount - fee).put("currency", currency)
        .put("type", type).put("reporting_category", type).put("source", source).put("status", "available")
        .put("available_on", txn.getLong("created") + 2 * 86_400).putNull("description").putNull("exchange_rate")
        .put("balance_type", "payments");
  }

  /** The object with every {@code expand} path (dotted, e.g. {@code latest_charge.balance_transaction}) expanded. */
  Future<JsonObject> expand(JsonObject object, JsonArray paths) {
    Future<JsonObject> done = Future.succeededFuture(object);
    for (Object path : paths) {
      done = done.compose(o -> expandPath(o, String.valueOf(path).split("\\."), 0).map(o));
    }
    return done;
  }

  private Future<Void> expandPath(JsonObject object, String[] path, int index) {
    Object value = object.getValue(path[index]);
    Future<JsonObject> child = value instanceof String id ? store.getAny(id).map(found -> {
      JsonObject visible = Objects.visible(found);
      object.put(path[index], visible);
      return visible;
    }) : Future.succeededFuture(value instanceof JsonObject expanded ? expanded : null);
    return child.compose(c -> c == null || index == path.length - 1 ? Future.succeededFuture()
        : expandPath(c, path, index + 1));
  }
}
