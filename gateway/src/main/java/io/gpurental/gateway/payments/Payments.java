package io.gpurental.gateway.payments;

import io.gpurental.gateway.payments.PaymentRepository.PaymentToCharge;
import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.util.List;

/**
 * What the reservations feature asks of payments: open a checkout, charge the saved card, record
 * a pending payment in the hold's transaction, and decide refunds.
 */
public final class Payments {
  private final Pool pool;
  private final StripeGateway stripe;
  private final SavedCards cards;
  private final Refunds refunds;
  private final PaymentEvents events;
  private final PaymentRecords records;
  private final RegisteredOutcomes outcomes;
  private final ManualRefunds manual;

  Payments(Pool pool, StripeGateway stripe, SavedCards cards, Refunds refunds, PaymentEvents events,
      PaymentRecords records, RegisteredOutcomes outcomes) {
    this.pool = pool;
    this.stripe = stripe;
    this.cards = cards;
    this.refunds = refunds;
    this.events = events;
    this.records = records;
    this.outcomes = outcomes;
    this.manual = new ManualRefunds(pool, refunds);
  }

  /** Where payments report what they did to what they paid for (reservations registers at boot). */
  public void reportTo(PaymentOutcomes outcomes) {
    this.outcomes.register(outcomes);
  }

  /**
   * What a payment is for, and how much; {@code price} (the quote's items and total, may be null)
   * itemizes the checkout page.
   */
  public record Charge(String paymentId, String reservationId, String extensionId, String accountId, long amount,
      String currency, String description, JsonObject price) {}

  /** Opens a Stripe Checkout Session for the charge (before the hold's transaction). */
  public Future<StripeGateway.Checkout> checkout(Charge charge, String successUrl, String cancelUrl) {
    return stripe.checkout("checkout-" + charge.paymentId(), charge.paymentId(), charge.reservationId(),
        charge.accountId(), charge.currency(), lines(charge), successUrl, cancelUrl);
  }

  /**
   * The checkout's line items: the GPU hours (after any duration discount), the platform fee and
   * tax, as the quote itemized them (Checkout takes no negative lines, so the discount is folded
   * into the hours). One line when the items do not add up to the amount.
   */
  static List<StripeGateway.Line> lines(Charge charge) {
    List<StripeGateway.Line> single = List.of(new StripeGateway.Line(charge.description(), charge.amount()));
    if (charge.price() == null || charge.price().getJsonArray("items") == null) {
      return single;
    }
    PriceParts parts = PriceParts.of(charge.price());
    if (!parts.consistent() || parts.total() != charge.amount() || parts.gpuHours() <= 0) {
      return single;
    }
    List<StripeGateway.Line> lines = new java.util.ArrayList<>();
    lines.add(new StripeGateway.Line(charge.description(), parts.gpuHours()));
    if (parts.platformFee() > 0) {
      lines.add(new StripeGateway.Line("Platform fee", parts.platformFee()));
    }
    if (parts.tax() > 0) {
      lines.add(new StripeGateway.Line("Tax", parts.tax()));
    }
    return lines;
  }

  /** Best effort: a checkout whose hold was never made, or was cancelled, is closed. */
  public void expire(String checkoutSessionId) {
    stripe.expire(checkoutSessionId);
  }

  /** Stripe's smallest card charge in USD (and most currencies), in minor units. */
  public static final long MINIMUM_CHARGE = 50;

  /** 400 when an amount is below what a card can be charged. */
  public static void requireChargeable(long amount, String currency) {
    if (amount < MINIMUM_CHARGE) {
      throw new Invalid("The total " + io.gpurental.gateway.platform.Money.format(amount, currency) + " is below the"
          + " smallest card payment (" + io.gpurental.gateway.platform.Money.format(MINIMUM_CHARGE, currency)
          + "); book more hours or GPUs.", List.of(new Invalid.FieldError("#/hours", "total below the minimum charge")));
    }
  }

  /** 400 naming {@code payment} when the account has no saved card to charge. */
  public Future<Void> requireSavedCard(String accountId) {
    return cards.of(accountId).map(card -> {
      if (card.isEmpty()) {
        throw new Invalid("You have no saved card; save one in a browser (POST /payment-methods/setup, or Account →"
            + " Payment methods), or pay with \"checkout\".", List.of(new Invalid.FieldError("#/payment",
            "no saved card")));
      }
      return null;
    });
  }

  /** Writes the pending payment, in the transaction that holds the GPUs. */
  public static Future<Void> recordPending(SqlConnection tx, Charge charge, String method,
      StripeGateway.Checkout checkout) {
    return PaymentRepository.insertPending(tx, charge, checkout);
  }

  /**
   * Gives up the pending payments of a reservation, in the caller's transaction (a cancel); the
   * checkout sessions among them, to {@link #expire} after commit.
   */
  public static Future<List<String>> cancelPending(SqlConnection tx, String reservationId) {
    return PaymentRepository.cancelPending(tx, reservationId);
  }

  /** The same for the pending payments of these extensions only (they lapsed with their window). */
  public static Future<List<String>> cancelPendingExtensions(SqlConnection tx, List<String> extensionIds) {
    return PaymentRepository.cancelPendingExtensions(tx, extensionIds);
  }

  /** How charging the saved card ended. */
  public record SavedCardResult(Outcome outcome, String code, String declineCode, String message) {
    public enum Outcome { PAID, PROCESSING, DECLINED, NEEDS_AUTHENTICATION, NOT_PENDING }
  }

  /**
   * Charges the saved card for a pending payment and settles it: paid (the reservation is
   * confirmed), declined (the hold is released), or needing authentication (the hold stays; pay
   * in a browser). Safe to call again for the same payment: Stripe sees one payment intent.
   */
  public Future<SavedCardResult> chargeSavedCard(String paymentId) {
    return PaymentRepository.toCharge(pool, paymentId)
        .compose(payment -> {
          if (!"pending".equals(payment.status())) {
            return Future.succeededFuture(new SavedCardResult(SavedCardResult.Outcome.NOT_PENDING, null, null, null));
          }
          if (payment.paymentMethodId() == null) {
            return settleDeclined(payment, "no_saved_card", null, "The saved card was removed before the charge.");
          }
          return stripe.chargeOffSession(paymentId, payment.reservationId(), payment.customerId(),
                  payment.paymentMethodId(), payment.amount(), payment.currency(),
                  "GPU reservation " + payment.reservationId())
              .compose(charge -> settle(payment, charge));
        });
  }

  private Future<SavedCardResult> settle(PaymentToCharge payment, StripeGateway.OffSessionCharge charge) {
    String paymentId = payment.id();
    if (charge instanceof StripeGateway.OffSessionCharge.Paid paid) {
      return pool.withTransaction(tx -> records.succeeded(tx, paymentId, null, paid.paymentIntentId(),
              "paid with the saved card"))
          .map(applied -> {
            events.announce(applied);
            boolean kept = applied.paid() == null || applied.paid().confirmed();
            return kept ? new SavedCardResult(SavedCardResult.Outcome.PAID, null, null, null)
                : new SavedCardResult(SavedCardResult.Outcome.NOT_PENDING, null, null, null);
          });
    }
    if (charge instanceof StripeGateway.OffSessionCharge.Processing) {
      return Future.succeededFuture(new SavedCardResult(SavedCardResult.Outcome.PROCESSING, null, null, null));
    }
    if (charge instanceof StripeGateway.OffSessionCharge.Declined declined) {
      return settleDeclined(payment, declined.declineCode() != null ? declined.declineCode() : declined.code(),
          declined.declineCode(), declined.message());
    }
    String message = ((StripeGateway.OffSessionCharge.NeedsAuthentication) charge).message();
    return pool.withTransaction(tx -> records.failed(tx, paymentId, "authentication_required", message))
        .map(v -> new SavedCardResult(SavedCardResult.Outcome.NEEDS_AUTHENTICATION, "authentication_required", null,
            message));
  }

  private Future<SavedCardResult> settleDeclined(PaymentToCharge payment, String code, String declineCode,
      String message) {
    String cause = "card declined (" + (declineCode != null ? declineCode : code) + "); hold released";
    return pool.withTransaction(tx -> records.failed(tx, payment.id(), code, message)
            .compose(v -> outcomes.unpaid(tx, payment.reservationId(), payment.extensionId(), cause)))
        .map(v -> new SavedCardResult(SavedCardResult.Outcome.DECLINED, code, declineCode, message));
  }

  /** Decides refunds for a reservation inside the caller's transaction; execute them after commit. */
  public static Future<List<String>> refundReservation(SqlConnection tx, String reservationId, long amount,
      String reason) {
    return Refunds.forReservation(tx, reservationId, amount, reason);
  }

  /** Asks Stripe for refunds decided earlier (failures are retried by the reconciler). */
  public Future<Void> executeRefunds(List<String> ids) {
    return refunds.executeAll(ids);
  }

  /**
   * An operator's refund or credit ({@code kind}) of {@code amount} of what the reservation paid,
   * with the reason ({@code note}) the renter sees; a retry with the same operator and key answers
   * the same request.
   */
  public record ManualRefund(String reservationId, String kind, long amount, String currency, String note,
      String actorId, String idempotencyKey) {}

  /** A manual refund or credit as stored, with its refunds (API form) and their current status. */
  public record RefundRequest(String id, String reservationId, String kind, Money amount, String note,
      String requestedBy, java.time.Instant createdAt, List<JsonObject> refunds) {}

  /**
   * Decides and executes a manual refund or credit: 409 when it exceeds what was paid and not yet
   * refunded, 422 when the key was used for a different request.
   */
  public Future<RefundRequest> refundManually(ManualRefund request) {
    return manual.request(request);
  }

  /** One reconciliation run: when, what it did, and the error that ended it (null when it finished). */
  public record ReconcilerRun(java.time.Instant startedAt, java.time.Instant finishedAt, Counts counts,
      String error) {
    /** Pending refunds retried; missed Stripe events found, applied, and failed (retried next run). */
    public record Counts(int refundsRetried, int eventsMissed, int eventsApplied, int eventsFailed) {}

    public boolean failed() {
      return error != null || counts.eventsFailed() > 0;
    }
  }

  /** How reconciliation goes: its interval, the last run, the last failed one, and the last 24 hours. */
  public record ReconciliationStatus(java.time.Duration interval, java.util.Optional<ReconcilerRun> lastRun,
      java.util.Optional<ReconcilerRun> lastFailure, long runsLastDay, long eventsAppliedLastDay) {}
}
