package io.gpurental.gateway.payments;

import io.gpurental.gateway.payments.LedgerRepository.Entry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlConnection;
import java.util.List;

/**
 * Double-entry records of money movements (debits positive, credits negative). A card charge
 * debits the Stripe clearing account with the total and credits revenue (GPU hours net of
 * discounts, platform fee) and tax payable; a refund debits the refunds contra-revenue account and
 * credits Stripe clearing; the fee Stripe keeps on a charge debits {@code expense:card_fees} and
 * credits Stripe clearing. Each Stripe object is recorded once ({@code UNIQUE (kind, ref)}), and
 * the database refuses, at commit, any transaction that does not sum to zero.
 */
final class Ledger {
  private Ledger() {}

  /** A charge of the quoted {@code price} (items and total), by the payment intent that took it. */
  static Future<Void> recordCharge(SqlConnection tx, String paymentIntentId, JsonObject price, String currency) {
    PriceParts parts = PriceParts.of(price);
    return LedgerRepository.record(tx, "charge", paymentIntentId, currency, List.of(
        new Entry("asset:stripe_clearing", parts.total()),
        new Entry("revenue:gpu_hours", -parts.gpuHours()),
        new Entry("revenue:platform_fee", -parts.platformFee()),
        new Entry("liability:tax", -parts.tax())));
  }

  /**
   * Money given back to the card, by the Stripe refund that moved it: a credit (goodwill an
   * operator gave) is kept apart from refunds of what was not delivered.
   */
  static Future<Void> recordRefund(SqlConnection tx, String stripeRefundId, long amount, String currency,
      boolean credit) {
    return LedgerRepository.record(tx, "refund", stripeRefundId, currency, List.of(
        new Entry(credit ? "contra_revenue:credits" : "contra_revenue:refunds", amount),
        new Entry("asset:stripe_clearing", -amount)));
  }

  /** The fee Stripe kept from a charge, by its balance transaction: an expense paid out of the clearing balance. */
  static Future<Void> recordCardFee(SqlConnection tx, String balanceTransactionId, long fee, String currency) {
    return LedgerRepository.record(tx, "card_fee", balanceTransactionId, currency, List.of(
        new Entry("expense:card_fees", fee),
        new Entry("asset:stripe_clearing", -fee)));
  }
}
