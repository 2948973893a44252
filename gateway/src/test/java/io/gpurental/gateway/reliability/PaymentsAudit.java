package io.gpurental.gateway.reliability;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The money checks of the payments scenario, in SQL against the gateway's tables and the Stripe
 * sandbox's own ({@code sandbox_stripe.objects}, standing for what Stripe really did). Each
 * returns what is wrong, one line per case: empty when the books are right.
 */
final class PaymentsAudit {
  /** Charged by Stripe, but the gateway has no succeeded payment of that intent and amount. */
  static final String CHARGED_NOT_CONFIRMED = """
      SELECT o.id || ' (' || (o.data -> 'metadata' ->> 'payment_id') || ')' FROM sandbox_stripe.objects o
      WHERE o.type = 'payment_intent' AND o.data ->> 'status' = 'succeeded' AND NOT EXISTS (
        SELECT 1 FROM payments p WHERE p.payment_intent_id = o.id AND p.status IN ('succeeded', 'refunded')
          AND p.amount = (o.data ->> 'amount')::bigint)""";
  /** A reservation the gateway counts as paid without a payment Stripe charged. */
  static final String CONFIRMED_NOT_PAID = """
      SELECT r.id || ' ' || r.status FROM reservations r
      WHERE r.status IN ('confirmed', 'provisioning', 'running', 'completed') AND NOT EXISTS (
        SELECT 1 FROM payments p JOIN sandbox_stripe.objects o ON o.id = p.payment_intent_id
        WHERE p.reservation_id = r.id AND p.status IN ('succeeded', 'refunded')
          AND o.data ->> 'status' = 'succeeded' AND (o.data ->> 'amount')::bigint = p.amount)""";
  /** Reservations still waiting for a payment that Stripe took. */
  static final String PAID_STILL_PENDING = """
      SELECT r.id FROM reservations r JOIN payments p ON p.reservation_id = r.id
      JOIN sandbox_stripe.objects o ON o.type = 'payment_intent' AND o.data -> 'metadata' ->> 'payment_id' = p.id
      WHERE r.status = 'pending_payment' AND o.data ->> 'status' = 'succeeded'""";
  /** Refunds Stripe made that the gateway has not recorded as succeeded, with the same amount. */
  static final String REFUNDED_NOT_RECORDED = """
      SELECT o.id || ' (' || coalesce(o.data -> 'metadata' ->> 'refund_id', '?') || ')' FROM sandbox_stripe.objects o
      WHERE o.type = 'refund' AND o.data ->> 'status' = 'succeeded' AND NOT EXISTS (
        SELECT 1 FROM refunds f WHERE f.stripe_refund_id = o.id AND f.status = 'succeeded'
          AND f.amount = (o.data ->> 'amount')::bigint)""";
  /** Refunds the gateway decided that are not done, or that it records without a Stripe refund. */
  static final String REFUNDS_NOT_DONE = """
      SELECT f.id || ' ' || f.status || coalesce(' ' || f.failure_message, '') FROM refunds f
      WHERE f.status <> 'succeeded' OR NOT EXISTS (
        SELECT 1 FROM sandbox_stripe.objects o WHERE o.type = 'refund' AND o.id = f.stripe_refund_id)""";
  /** One refund decision paid out twice at Stripe. */
  static final String REFUNDED_TWICE = """
      SELECT data -> 'metadata' ->> 'refund_id' FROM sandbox_stripe.objects WHERE type = 'refund'
      GROUP BY 1 HAVING count(*) > 1""";
  /** A payment whose refunded amount differs from what Stripe gave back on its intent. */
  static final String REFUNDED_AMOUNT_DIFFERS = """
      SELECT p.id || ' refunded ' || p.amount_refunded FROM payments p WHERE p.payment_intent_id IS NOT NULL
        AND p.amount_refunded <> coalesce((SELECT sum((o.data ->> 'amount')::bigint) FROM sandbox_stripe.objects o
          WHERE o.type = 'refund' AND o.data ->> 'payment_intent' = p.payment_intent_id
            AND o.data ->> 'status' = 'succeeded'), 0)""";
  /** A cancelled reservation (all before their start) keeps money: it must all be back on the card. */
  static final String CANCELLED_NOT_REFUNDED = """
      SELECT r.id || ' kept ' || (p.amount - p.amount_refunded) FROM reservations r
      JOIN payments p ON p.reservation_id = r.id
      WHERE r.status = 'cancelled' AND p.status IN ('succeeded', 'refunded') AND p.amount_refunded <> p.amount""";
  /** What the ledger check finds (unbalanced transactions, charges or refunds without their one entry, …). */
  static final String LEDGER_PROBLEMS = "SELECT problem || ' ' || ref || ': ' || detail FROM ledger_problems";
  /** A reservation confirmed more than once, or paid by more than one payment. */
  static final String DOUBLE_EFFECTS = """
      SELECT reservation_id || ' confirmed ' || count(*) || ' times' FROM reservation_events
      WHERE to_status = 'confirmed' GROUP BY reservation_id HAVING count(*) > 1
      UNION ALL
      SELECT reservation_id || ' paid ' || count(*) || ' times' FROM payments
      WHERE status IN ('succeeded', 'refunded') GROUP BY reservation_id HAVING count(*) > 1""";
  /**
   * Stripe clearing plus the card fees paid out of it must be what Stripe charged less what it
   * gave back; the whole ledger sums to zero.
   */
  static final String CLEARING_DIFFERS = """
      SELECT 'clearing + card fees ' || l.booked || ' but Stripe charged - refunded = ' || s.net FROM
        (SELECT coalesce(sum(amount), 0) AS booked FROM ledger_entries
         WHERE account IN ('asset:stripe_clearing', 'expense:card_fees')) l,
        (SELECT coalesce(sum(CASE WHEN type = 'payment_intent' THEN (data ->> 'amount')::bigint
                                  ELSE -(data ->> 'amount')::bigint END), 0) AS net
         FROM sandbox_stripe.objects WHERE data ->> 'status' = 'succeeded' AND type IN ('payment_intent', 'refund')) s
      WHERE l.booked <> s.net
      UNION ALL
      SELECT 'the ledger sums to ' || sum(amount) FROM ledger_entries HAVING sum(amount) <> 0""";

  private PaymentsAudit() {}

  /** The lines {@code query} returns. */
  static List<String> lines(GatewayCluster cluster, String query) {
    try (Connection connection = cluster.connection(); Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(query)) {
      List<String> lines = new ArrayList<>();
      while (rows.next()) {
        lines.add(rows.getString(1));
      }
      return lines;
    } catch (SQLException e) {
      throw new IllegalStateException("query failed: " + query, e);
    }
  }
}
