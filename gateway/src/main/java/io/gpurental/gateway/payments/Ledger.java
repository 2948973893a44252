package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.List;

/**
 * Double-entry records of money movements (debits positive, credits negative). A card charge
 * debits the Stripe clearing account with the total and credits revenue (GPU hours net of
 * discounts, platform fee) and tax payable; a refund debits the refunds contra-revenue account and
 * credits Stripe clearing. Each Stripe object is recorded once ({@code UNIQUE (kind, ref)}), and
 * the database refuses, at commit, any transaction that does not sum to zero.
 */
final class Ledger {
  private static final String ENTRY = "INSERT INTO ledger_entries (transaction_id, account, amount, currency)"
      + " VALUES ($1, $2, $3, $4)";

  private Ledger() {}

  /** A charge of the quoted {@code price} (items and total), by the payment intent that took it. */
  static Future<Void> recordCharge(SqlConnection tx, String paymentIntentId, JsonObject price, String currency) {
    PriceParts parts = PriceParts.of(price);
    return open(tx, "charge", paymentIntentId).compose(transaction -> tx.preparedQuery(ENTRY).executeBatch(List.of(
        Tuple.of(transaction, "asset:stripe_clearing", parts.total(), currency),
        Tuple.of(transaction, "revenue:gpu_hours", -parts.gpuHours(), currency),
        Tuple.of(transaction, "revenue:platform_fee", -parts.platformFee(), currency),
        Tuple.of(transaction, "liability:tax", -parts.tax(), currency)))).mapEmpty();
  }

  /** Money given back to the card, by the Stripe refund that moved it. */
  static Future<Void> recordRefund(SqlConnection tx, String stripeRefundId, long amount, String currency) {
    return open(tx, "refund", stripeRefundId).compose(transaction -> tx.preparedQuery(ENTRY).executeBatch(List.of(
        Tuple.of(transaction, "contra_revenue:refunds", amount, currency),
        Tuple.of(transaction, "asset:stripe_clearing", -amount, currency)))).mapEmpty();
  }

  private static Future<Long> open(SqlConnection tx, String kind, String ref) {
    return tx.preparedQuery("INSERT INTO ledger_transactions (kind, ref) VALUES ($1, $2) RETURNING id")
        .execute(Tuple.of(kind, ref)).map(rows -> rows.iterator().next().getLong(0));
  }
}
