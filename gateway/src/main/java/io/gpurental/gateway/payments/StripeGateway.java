package io.gpurental.gateway.payments;

import com.stripe.StripeClient;
import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.ApiException;
import com.stripe.exception.CardException;
import com.stripe.exception.RateLimitException;
import com.stripe.exception.StripeException;
import com.stripe.model.BalanceTransaction;
import com.stripe.model.Charge;
import com.stripe.model.Customer;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.model.PaymentMethod;
import com.stripe.model.Refund;
import com.stripe.model.SetupIntent;
import com.stripe.model.StripeCollection;
import com.stripe.model.checkout.Session;
import com.stripe.net.RequestOptions;
import com.stripe.param.CustomerCreateParams;
import com.stripe.param.EventListParams;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.PaymentIntentRetrieveParams;
import com.stripe.param.RefundCreateParams;
import com.stripe.param.checkout.SessionCreateParams;
import io.gpurental.gateway.config.StripeConfig;
import io.gpurental.gateway.platform.errors.ServiceUnavailable;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's calls to Stripe, through stripe-java (blocking, so on worker threads), each with
 * an idempotency key derived from our own ids: a retry after a crash creates nothing twice.
 */
public final class StripeGateway {
  /** Stripe's shortest allowed Checkout Session lifetime. */
  private static final Duration CHECKOUT_LIFETIME = Duration.ofMinutes(31);
  /** How often a call whose idempotency key is in use by a concurrent request is asked again. */
  private static final int KEY_IN_USE_ATTEMPTS = 20;
  private static final long PROVIDER_RETRY_AFTER_SECONDS = 5;
  private static final Logger LOG = LoggerFactory.getLogger(StripeGateway.class);
  private final Vertx vertx;
  private final Pool pool;
  private final StripeClient stripe;

  public StripeGateway(Vertx vertx, Pool pool, StripeConfig config) {
    this.vertx = vertx;
    this.pool = pool;
    StripeClient.StripeClientBuilder builder = StripeClient.builder().setApiKey(config.secretKey())
        .setHttpClient(StripeThreads.httpClient());
    if (config.sandbox()) {
      builder.setApiBase(config.apiBase().toString());
    }
    this.stripe = builder.build();
  }

  /** One line of a checkout page. */
  public record Line(String name, long amount) {}

  /** A hosted checkout for one reservation's total. */
  public record Checkout(String sessionId, String url) {}

  /**
   * The account's Stripe customer, created once however many first payments race: Stripe's
   * idempotency key (per account) gives them all the same customer, the insert keeps the first row
   * and ignores any conflict, and every request answers the row as stored. No lock is held across
   * the Stripe call (a pooled connection would wait on the network).
   */
  Future<String> customerFor(String accountId) {
    return PaymentRepository.customerOf(pool, accountId)
        .compose(found -> found.isPresent() ? Future.succeededFuture(found.get())
            : blocking(() -> create(accountId))
                .compose(customer -> PaymentRepository.insertCustomer(pool, accountId, customer))
                .compose(v -> PaymentRepository.customerOf(pool, accountId))
                .map(stored -> stored.orElseThrow(() -> new IllegalStateException(
                    "No Stripe customer stored for " + accountId + " after storing one"))));
  }

  private String create(String accountId) throws StripeException {
    Customer customer = stripe.customers().create(CustomerCreateParams.builder().putMetadata("account_id", accountId)
        .build(), RequestOptions.builder().setIdempotencyKey("customer-" + accountId).build());
    return customer.getId();
  }

  /**
   * Opens a Checkout Session charging {@code amount} for the payment {@code paymentId} of a
   * reservation (or of one of its extensions); {@code key} makes a retry reuse the session.
   */
  public Future<Checkout> checkout(String key, String paymentId, String reservationId, String accountId,
      String currency, List<Line> lines, String successUrl, String cancelUrl) {
    return customerFor(accountId).compose(customer -> blocking(() -> {
      SessionCreateParams.Builder params = SessionCreateParams.builder();
      for (Line line : lines) {
        params.addLineItem(SessionCreateParams.LineItem.builder().setQuantity(1L)
            .setPriceData(SessionCreateParams.LineItem.PriceData.builder().setCurrency(currency)
                .setUnitAmount(line.amount()).setProductData(SessionCreateParams.LineItem.PriceData.ProductData
                    .builder().setName(line.name()).build()).build()).build());
      }
      Session session = stripe.checkout().sessions().create(params
          .setMode(SessionCreateParams.Mode.PAYMENT)
          .setCustomer(customer)
          .setClientReferenceId(reservationId)
          .putMetadata("reservation_id", reservationId)
          .putMetadata("payment_id", paymentId)
          .setPaymentIntentData(SessionCreateParams.PaymentIntentData.builder()
              .putMetadata("reservation_id", reservationId).putMetadata("payment_id", paymentId).build())
          .setExpiresAt(Instant.now().plus(CHECKOUT_LIFETIME).getEpochSecond())
          .setSuccessUrl(successUrl)
          .setCancelUrl(cancelUrl)
          .build(), RequestOptions.builder().setIdempotencyKey(key).build());
      return new Checkout(session.getId(), session.getUrl());
    }));
  }

  /** What charging a saved card without the renter present came to. */
  public sealed interface OffSessionCharge {
    /** Paid: the payment intent succeeded. */
    record Paid(String paymentIntentId) implements OffSessionCharge {}

    /** Refused by the card's bank; {@code declineCode} as Stripe reports it. */
    record Declined(String code, String declineCode, String message) implements OffSessionCharge {}

    /** Accepted but not settled yet: Stripe's webhook reports the outcome. */
    record Processing(String paymentIntentId) implements OffSessionCharge {}

    /** The bank wants the renter to authenticate (3-D Secure): only possible in a browser. */
    record NeedsAuthentication(String message) implements OffSessionCharge {}
  }

  /**
   * Charges the customer's saved card off-session for one payment; the payment id is the
   * idempotency key, so asking again after a crash returns the same payment intent.
   */
  Future<OffSessionCharge> chargeOffSession(String paymentId, String reservationId, String customer,
      String paymentMethod, long amount, String currency, String description) {
    return blocking(() -> {
      try {
        PaymentIntent intent = stripe.paymentIntents().create(PaymentIntentCreateParams.builder()
            .setAmount(amount).setCurrency(currency).setCustomer(customer).setPaymentMethod(paymentMethod)
            .setConfirm(true).setOffSession(true).setDescription(description)
            .putMetadata("reservation_id", reservationId).putMetadata("payment_id", paymentId).build(),
            RequestOptions.builder().setIdempotencyKey("charge-" + paymentId).build());
        return switch (intent.getStatus()) {
          case "succeeded" -> new OffSessionCharge.Paid(intent.getId());
          case "processing" -> new OffSessionCharge.Processing(intent.getId());
          default -> new OffSessionCharge.NeedsAuthentication("The card needs authentication (" + intent.getStatus()
              + ").");
        };
      } catch (CardException e) {
        String message = e.getStripeError() != null && e.getStripeError().getMessage() != null
            ? e.getStripeError().getMessage() : e.getMessage();
        return "authentication_required".equals(e.getCode()) ? new OffSessionCharge.NeedsAuthentication(message)
            : new OffSessionCharge.Declined(e.getCode(), e.getDeclineCode(), message);
      }
    });
  }

  /** Refunds part or all of a payment intent; our refund id is the idempotency key. */
  Future<String> refund(String refundId, String paymentIntentId, long amount) {
    return blocking(() -> {
      Refund refund = stripe.refunds().create(RefundCreateParams.builder().setPaymentIntent(paymentIntentId)
          .setAmount(amount).putMetadata("refund_id", refundId).build(),
          RequestOptions.builder().setIdempotencyKey("refund-" + refundId).build());
      return refund.getId();
    });
  }

  /** The fee Stripe kept on a charge, from its balance transaction. */
  record CardFee(String balanceTransactionId, long amount, String currency) {}

  /**
   * The card fee of the payment intent's charge ({@code latest_charge.balance_transaction},
   * expanded); empty while Stripe has no balance transaction for it (e.g. not captured yet).
   */
  Future<java.util.Optional<CardFee>> cardFee(String paymentIntentId) {
    return blocking(() -> {
      PaymentIntent intent = stripe.paymentIntents().retrieve(paymentIntentId, PaymentIntentRetrieveParams.builder()
          .addExpand("latest_charge.balance_transaction").build());
      Charge charge = intent.getLatestChargeObject();
      BalanceTransaction txn = charge == null ? null : charge.getBalanceTransactionObject();
      return txn == null ? java.util.Optional.<CardFee>empty()
          : java.util.Optional.of(new CardFee(txn.getId(), txn.getFee(), txn.getCurrency()));
    });
  }

  /** A Checkout Session in setup mode: the renter saves a card for later off-session charges. */
  Future<String> setupSession(String setupId, String accountId, String successUrl, String cancelUrl) {
    return customerFor(accountId).compose(customer -> blocking(() -> stripe.checkout().sessions()
        .create(SessionCreateParams.builder().setMode(SessionCreateParams.Mode.SETUP).setCustomer(customer)
            .setCurrency("usd").setClientReferenceId(accountId).putMetadata("account_id", accountId)
            .setSuccessUrl(successUrl).setCancelUrl(cancelUrl).build(),
            RequestOptions.builder().setIdempotencyKey(setupId).build()).getUrl()));
  }

  /** The card a completed setup saved. */
  record SavedCard(String customer, String paymentMethodId, String brand, String last4, Long expMonth, Long expYear) {}

  Future<SavedCard> cardOfSetup(String setupIntentId) {
    return blocking(() -> {
      SetupIntent setup = stripe.setupIntents().retrieve(setupIntentId);
      PaymentMethod method = stripe.paymentMethods().retrieve(setup.getPaymentMethod());
      PaymentMethod.Card card = method.getCard();
      return new SavedCard(setup.getCustomer(), method.getId(), card == null ? "card" : card.getBrand(),
          card == null ? "????" : card.getLast4(), card == null ? null : card.getExpMonth(),
          card == null ? null : card.getExpYear());
    });
  }

  Future<Void> detach(String paymentMethodId) {
    return blocking(() -> stripe.paymentMethods().detach(paymentMethodId)).mapEmpty();
  }

  /** Stripe's events newer than {@code since}, newest first (a few pages at most), read on the worker. */
  Future<List<StripeEvent>> eventsSince(Instant since, int max) {
    return blocking(() -> {
      List<StripeEvent> events = new ArrayList<>();
      String after = null;
      while (events.size() < max) {
        EventListParams.Builder params = EventListParams.builder().setLimit(100L);
        if (after != null) {
          params.setStartingAfter(after);
        }
        StripeCollection<Event> page = stripe.events().list(params.build());
        for (Event event : page.getData()) {
          if (event.getCreated() < since.getEpochSecond()) {
            return events;
          }
          events.add(StripeEvent.read(event));
        }
        if (!Boolean.TRUE.equals(page.getHasMore()) || page.getData().isEmpty()) {
          return events;
        }
        after = page.getData().get(page.getData().size() - 1).getId();
      }
      return events;
    });
  }

  /** Best effort: a session whose reservation was never made is closed. */
  public void expire(String sessionId) {
    blocking(() -> stripe.checkout().sessions().expire(sessionId));
  }

  /**
   * Runs a Stripe call on a worker thread, unordered (a slow call does not queue the others).
   * Two requests racing with the same idempotency key get 409 from Stripe for the second while
   * the first is in flight: it waits and asks again, and then gets the first one's result.
   */
  private <T> Future<T> blocking(Callable<T> call) {
    return blocking(call, 1);
  }

  private <T> Future<T> blocking(Callable<T> call, int attempt) {
    return vertx.executeBlocking(call, false).recover(failure -> failure instanceof StripeException stripeFailure
        && Integer.valueOf(409).equals(stripeFailure.getStatusCode()) && attempt < KEY_IN_USE_ATTEMPTS
        ? vertx.timer(100L * attempt).compose(t -> blocking(call, attempt + 1))
        : Future.failedFuture(unavailableOr(failure)));
  }

  /**
   * Stripe unreachable, overloaded or failing on its side is an outage for the caller (503 with
   * Retry-After, as when PostgreSQL is down), not a bug of ours: scenario 5 saw reservations
   * answer 500 when the checkout could not be created. Stripe's answers about the request itself
   * (a declined card, a bad parameter) stay what they are.
   */
  static Throwable unavailableOr(Throwable failure) {
    boolean unavailable = failure instanceof ApiConnectionException || failure instanceof RateLimitException
        || failure instanceof ApiException stripe && (stripe.getStatusCode() == null || stripe.getStatusCode() >= 500);
    if (!unavailable) {
      return failure;
    }
    LOG.warn("Stripe unavailable, answered 503: {}", failure.toString());
    return new ServiceUnavailable("The payment provider is unavailable; retry shortly.", PROVIDER_RETRY_AFTER_SECONDS);
  }
}
