package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Payments, the Stripe events applied to them and the accounts' Stripe customers and saved cards,
 * in PostgreSQL. Each method runs on the {@link SqlClient} it is given: the pool for a statement of
 * its own, or the caller's transaction, whose boundaries and lock order stay the caller's.
 */
final class PaymentRepository {
  private static final String INSERT_PENDING = """
      INSERT INTO payments (id, reservation_id, extension_id, account_id, kind, checkout_session_id, checkout_url,
        amount, currency, status) VALUES ($1, $2, $3, $4, 'charge', $5, $6, $7, $8, 'pending')""";
  private static final String CANCEL_PENDING = """
      UPDATE payments SET status = 'canceled', updated_at = now()
      WHERE reservation_id = $1 AND status = 'pending' RETURNING checkout_session_id""";
  private static final String CANCEL_PENDING_EXTENSIONS = """
      UPDATE payments SET status = 'canceled', updated_at = now()
      WHERE extension_id = ANY($1) AND status = 'pending' RETURNING checkout_session_id""";
  private static final String TO_CHARGE = """
      SELECT p.*, s.customer_id, s.default_payment_method FROM payments p
      LEFT JOIN stripe_customers s ON s.account_id = p.account_id WHERE p.id = $1""";
  private static final String RESERVATION_OF = """
      SELECT reservation_id FROM payments WHERE id = $1 OR checkout_session_id = $2""";
  private static final String MARK_SUCCEEDED = """
      UPDATE payments SET status = 'succeeded', payment_intent_id = $3, failure_code = NULL,
        failure_message = NULL, updated_at = now() WHERE (id = $1 OR checkout_session_id = $2)
        AND status IN ('pending', 'canceled', 'failed') RETURNING id, reservation_id, extension_id""";
  private static final String MARK_FAILED = """
      UPDATE payments SET status = 'failed', failure_code = $2, failure_message = $3,
        updated_at = now() WHERE id = $1 AND status = 'pending' RETURNING id""";
  /** The renter may still pay at the checkout page: the reason is noted, the payment stays pending. */
  private static final String NOTE_FAILURE = """
      UPDATE payments SET failure_code = $2, failure_message = $3, updated_at = now()
      WHERE id = $1 AND status = 'pending'""";
  private static final String CANCEL_CHECKOUT = """
      UPDATE payments SET status = 'canceled', updated_at = now()
      WHERE checkout_session_id = $1 AND status = 'pending'""";
  private static final String PAYABLE_PRICE = """
      SELECT price, currency FROM payable_prices_view WHERE reservation_id = $1
        AND extension_id IS NOT DISTINCT FROM $2""";
  private static final String LIST = """
      SELECT p.*, v.price AS receipt, v.payment_method,
             coalesce((SELECT json_agg(%s ORDER BY f.created_at)
                       FROM refunds f WHERE f.payment_id = p.id), '[]') AS refunds
      FROM payments p JOIN payable_prices_view v
        ON v.reservation_id = p.reservation_id AND v.extension_id IS NOT DISTINCT FROM p.extension_id
      WHERE ($2 OR p.account_id = $1) AND ($3::timestamptz IS NULL OR (p.created_at, p.id) < ($3, $4))
      ORDER BY p.created_at DESC, p.id DESC LIMIT $5""".formatted(RefundRepository.AS_JSON);
  private static final String RECORD_EVENT = """
      INSERT INTO stripe_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id""";
  private static final String RECORDED_EVENTS = "SELECT id FROM stripe_events WHERE id = ANY($1)";
  private static final String PRUNE_EVENTS = """
      DELETE FROM stripe_events WHERE received_at < now() - make_interval(secs => $1)""";
  private static final String CUSTOMER_OF = "SELECT customer_id FROM stripe_customers WHERE account_id = $1";
  /**
   * No arbiter: the table has two unique keys (account_id, customer_id), and concurrent first
   * payments of one account insert the same row (Stripe's idempotent create answers one customer).
   * {@code ON CONFLICT (account_id)} let the losers fail on customer_id (issue 25); without an
   * arbiter a conflict on either key waits for the winner's commit and does nothing.
   */
  private static final String INSERT_CUSTOMER = """
      INSERT INTO stripe_customers (account_id, customer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING""";
  private static final String CARD_OF = """
      SELECT customer_id, default_payment_method, card_brand, card_last4 FROM stripe_customers
      WHERE account_id = $1 AND default_payment_method IS NOT NULL""";
  private static final String LIST_CARDS = """
      SELECT default_payment_method, card_brand, card_last4, card_exp_month, card_exp_year
      FROM stripe_customers WHERE account_id = $1 AND default_payment_method IS NOT NULL""";
  private static final String SAVE_CARD = """
      UPDATE stripe_customers SET default_payment_method = $2, card_brand = $3, card_last4 = $4,
        card_exp_month = $5, card_exp_year = $6 WHERE customer_id = $1""";
  private static final String FORGET_CARD = """
      UPDATE stripe_customers SET default_payment_method = NULL, card_brand = NULL, card_last4 = NULL,
        card_exp_month = NULL, card_exp_year = NULL WHERE account_id = $1 AND default_payment_method = $2""";

  private PaymentRepository() {}

  /** A payment as the saved-card charge reads it, with the account's customer and card (null: none). */
  record PaymentToCharge(String id, String reservationId, String extensionId, String status, long amount,
      String currency, String customerId, String paymentMethodId) {}

  /** A payment that has just become succeeded. */
  record SucceededPayment(String id, String reservationId, String extensionId) {}

  /** What a reservation (or one of its extensions) costs: the quoted price (items and total). */
  record PayablePrice(JsonObject price, String currency) {}

  /** A payment as the payments list shows it; {@code refunds} in the {@link RefundRepository#AS_JSON} form. */
  record ListedPayment(String id, String reservationId, String extensionId, String checkoutSessionId, long amount,
      long amountRefunded, String currency, String status, String failureCode, String failureMessage,
      JsonObject receipt, OffsetDateTime createdAt, List<JsonObject> refunds) {}

  /** The account's Stripe customer and saved card. */
  record Card(String customer, String paymentMethodId, String brand, String last4) {}

  /** A saved card as the payment-methods list shows it. */
  record ListedCard(String paymentMethodId, String brand, String last4, Integer expMonth, Integer expYear) {}

  static Future<Void> insertPending(SqlClient tx, Payments.Charge charge, StripeGateway.Checkout checkout) {
    return tx.preparedQuery(INSERT_PENDING)
        .execute(Tuple.from(new Object[] {charge.paymentId(), charge.reservationId(), charge.extensionId(),
            charge.accountId(), checkout == null ? null : checkout.sessionId(), checkout == null ? null : checkout.url(),
            charge.amount(), charge.currency()})).mapEmpty();
  }

  /** Cancels the reservation's pending payments; the checkout sessions among them. */
  static Future<List<String>> cancelPending(SqlClient tx, String reservationId) {
    return tx.preparedQuery(CANCEL_PENDING).execute(Tuple.of(reservationId)).map(PaymentRepository::checkouts);
  }

  /** Cancels these extensions' pending payments; the checkout sessions among them. */
  static Future<List<String>> cancelPendingExtensions(SqlClient tx, List<String> extensionIds) {
    return tx.preparedQuery(CANCEL_PENDING_EXTENSIONS).execute(Tuple.of(extensionIds.toArray(new String[0])))
        .map(PaymentRepository::checkouts);
  }

  private static List<String> checkouts(RowSet<Row> cancelled) {
    List<String> sessions = new ArrayList<>();
    cancelled.forEach(row -> {
      if (row.getString(0) != null) {
        sessions.add(row.getString(0));
      }
    });
    return sessions;
  }

  static Future<PaymentToCharge> toCharge(SqlClient client, String paymentId) {
    return client.preparedQuery(TO_CHARGE).execute(Tuple.of(paymentId)).map(rows -> {
      Row row = rows.iterator().next();
      return new PaymentToCharge(row.getString("id"), row.getString("reservation_id"), row.getString("extension_id"),
          row.getString("status"), row.getLong("amount"), row.getString("currency"), row.getString("customer_id"),
          row.getString("default_payment_method"));
    });
  }

  /** The reservation of the payment with our id or this checkout session. */
  static Future<Optional<String>> reservationOf(SqlClient tx, String paymentId, String checkoutSessionId) {
    return tx.preparedQuery(RESERVATION_OF).execute(Tuple.of(paymentId, checkoutSessionId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
  }

  /** Marks the payment succeeded unless it already is; empty when it was. */
  static Future<Optional<SucceededPayment>> markSucceeded(SqlClient tx, String paymentId, String checkoutSessionId,
      String paymentIntentId) {
    return tx.preparedQuery(MARK_SUCCEEDED).execute(Tuple.of(paymentId, checkoutSessionId, paymentIntentId))
        .map(rows -> {
          if (rows.size() == 0) {
            return Optional.empty();
          }
          Row row = rows.iterator().next();
          return Optional.of(new SucceededPayment(row.getString("id"), row.getString("reservation_id"),
              row.getString("extension_id")));
        });
  }

  /** Marks a pending payment failed; true when it was pending. */
  static Future<Boolean> markFailed(SqlClient tx, String paymentId, String code, String message) {
    return tx.preparedQuery(MARK_FAILED).execute(Tuple.of(paymentId, code, message)).map(rows -> rows.size() > 0);
  }

  static Future<Void> noteFailure(SqlClient tx, String paymentId, String code, String message) {
    return tx.preparedQuery(NOTE_FAILURE).execute(Tuple.of(paymentId, code, message)).mapEmpty();
  }

  /** Cancels the pending payment of an expired checkout session. */
  static Future<Void> cancelCheckout(SqlClient tx, String checkoutSessionId) {
    return tx.preparedQuery(CANCEL_CHECKOUT).execute(Tuple.of(checkoutSessionId)).mapEmpty();
  }

  static Future<PayablePrice> payablePrice(SqlClient tx, String reservationId, String extensionId) {
    return tx.preparedQuery(PAYABLE_PRICE).execute(Tuple.of(reservationId, extensionId)).map(rows -> {
      Row row = rows.iterator().next();
      return new PayablePrice(row.getJsonObject("price"), row.getString("currency"));
    });
  }

  /** A page of payments, newest first: all of them, or the account's; {@code limit} rows at most. */
  static Future<List<ListedPayment>> list(SqlClient client, String accountId, boolean all, OffsetDateTime afterCreatedAt,
      String afterId, int limit) {
    return client.preparedQuery(LIST).execute(Tuple.of(accountId, all, afterCreatedAt, afterId, limit)).map(rows -> {
      List<ListedPayment> payments = new ArrayList<>();
      rows.forEach(row -> payments.add(listed(row)));
      return payments;
    });
  }

  private static ListedPayment listed(Row row) {
    List<JsonObject> refunds = new ArrayList<>();
    Object stored = row.getValue("refunds");
    for (Object entry : stored instanceof JsonArray array ? array : new JsonArray(String.valueOf(stored))) {
      refunds.add((JsonObject) entry);
    }
    return new ListedPayment(row.getString("id"), row.getString("reservation_id"), row.getString("extension_id"),
        row.getString("checkout_session_id"), row.getLong("amount"), row.getLong("amount_refunded"),
        row.getString("currency"), row.getString("status"), row.getString("failure_code"),
        row.getString("failure_message"), row.getJsonObject("receipt"), row.getOffsetDateTime("created_at"), refunds);
  }

  /** Records a Stripe event id; true when it is new (so its effects are to be applied in this transaction). */
  static Future<Boolean> recordEvent(SqlClient tx, String eventId, String type) {
    return tx.preparedQuery(RECORD_EVENT).execute(Tuple.of(eventId, type)).map(rows -> rows.size() > 0);
  }

  /** Which of these Stripe event ids were recorded. */
  static Future<Set<String>> recordedEvents(SqlClient client, List<String> eventIds) {
    return client.preparedQuery(RECORDED_EVENTS).execute(Tuple.of(eventIds.toArray(new String[0]))).map(rows -> {
      Set<String> seen = new HashSet<>();
      rows.forEach(row -> seen.add(row.getString(0)));
      return seen;
    });
  }

  /** Deletes the Stripe events received over {@code seconds} ago; how many. */
  static Future<Integer> pruneEvents(SqlClient client, long seconds) {
    return client.preparedQuery(PRUNE_EVENTS).execute(Tuple.of(seconds)).map(RowSet::rowCount);
  }

  static Future<Optional<String>> customerOf(SqlClient client, String accountId) {
    return client.preparedQuery(CUSTOMER_OF).execute(Tuple.of(accountId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
  }

  /**
   * Stores the account's customer unless one was stored first (a concurrent first payment); the
   * caller reads the stored one back in a statement of its own, which sees the winner's commit.
   */
  static Future<Void> insertCustomer(SqlClient client, String accountId, String customerId) {
    return client.preparedQuery(INSERT_CUSTOMER).execute(Tuple.of(accountId, customerId)).mapEmpty();
  }

  static Future<Optional<Card>> cardOf(SqlClient client, String accountId) {
    return client.preparedQuery(CARD_OF).execute(Tuple.of(accountId)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row row = rows.iterator().next();
      return Optional.of(new Card(row.getString("customer_id"), row.getString("default_payment_method"),
          row.getString("card_brand"), row.getString("card_last4")));
    });
  }

  static Future<List<ListedCard>> listCards(SqlClient client, String accountId) {
    return client.preparedQuery(LIST_CARDS).execute(Tuple.of(accountId)).map(rows -> {
      List<ListedCard> cards = new ArrayList<>();
      rows.forEach(row -> cards.add(new ListedCard(row.getString(0), row.getString(1), row.getString(2),
          row.getInteger(3), row.getInteger(4))));
      return cards;
    });
  }

  /** Records the card a completed setup saved, replacing the one before. */
  static Future<Void> saveCard(SqlClient tx, StripeGateway.SavedCard card) {
    return tx.preparedQuery(SAVE_CARD)
        .execute(Tuple.of(card.customer(), card.paymentMethodId(), card.brand(), card.last4(),
            card.expMonth() == null ? null : card.expMonth().intValue(),
            card.expYear() == null ? null : card.expYear().intValue()))
        .mapEmpty();
  }

  /** Forgets the account's saved card if it is still this one. */
  static Future<Void> forgetCard(SqlClient client, String accountId, String paymentMethodId) {
    return client.preparedQuery(FORGET_CARD).execute(Tuple.of(accountId, paymentMethodId)).mapEmpty();
  }
}
