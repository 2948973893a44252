package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

/**
 * Double-entry records of money movements. A card charge debits the Stripe clearing account with
 * the total and credits revenue (GPU hours net of discounts, platform fee) and tax payable; the
 * database refuses, at commit, any transaction that does not sum to zero.
 */
final class Ledger {
  private Ledger() {}

  static Future<Void> recordCharge(SqlConnection tx, String paymentIntentId, String reservationId) {
    return tx.preparedQuery("SELECT price, currency FROM reservations WHERE id = $1").execute(Tuple.of(reservationId))
        .compose(rows -> {
          var row = rows.iterator().next();
          JsonObject price = row.getJsonObject("price");
          String currency = row.getString("currency");
          long gpuHours = 0;
          long fee = 0;
          long tax = 0;
          JsonArray items = price.getJsonArray("items");
          for (int i = 0; i < items.size(); i++) {
            JsonObject item = items.getJsonObject(i);
            long amount = item.getJsonObject("amount").getLong("amount");
            switch (item.getString("kind")) {
              case "platform_fee" -> fee += amount;
              case "tax" -> tax += amount;
              default -> gpuHours += amount;
            }
          }
          long total = price.getJsonObject("total").getLong("amount");
          long gpu = gpuHours;
          long platformFee = fee;
          long taxes = tax;
          return tx.preparedQuery("INSERT INTO ledger_transactions (kind, ref) VALUES ('charge', $1) RETURNING id")
              .execute(Tuple.of(paymentIntentId))
              .compose(inserted -> {
                long transaction = inserted.iterator().next().getLong(0);
                return tx.preparedQuery("INSERT INTO ledger_entries (transaction_id, account, amount, currency)"
                        + " VALUES ($1, $2, $3, $4)")
                    .executeBatch(java.util.List.of(
                        Tuple.of(transaction, "asset:stripe_clearing", total, currency),
                        Tuple.of(transaction, "revenue:gpu_hours", -gpu, currency),
                        Tuple.of(transaction, "revenue:platform_fee", -platformFee, currency),
                        Tuple.of(transaction, "liability:tax", -taxes, currency)))
                    .mapEmpty();
              });
        });
  }
}
