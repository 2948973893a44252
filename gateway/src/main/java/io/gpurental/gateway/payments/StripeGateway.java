package io.gpurental.gateway.payments;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Customer;
import com.stripe.model.checkout.Session;
import com.stripe.net.RequestOptions;
import com.stripe.param.CustomerCreateParams;
import com.stripe.param.checkout.SessionCreateParams;
import io.gpurental.gateway.config.StripeConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;

/**
 * The gateway's calls to Stripe, through stripe-java (blocking, so on worker threads), each with
 * an idempotency key derived from our own ids: a retry after a crash creates nothing twice.
 */
public final class StripeGateway {
  /** Stripe's shortest allowed Checkout Session lifetime. */
  private static final Duration CHECKOUT_LIFETIME = Duration.ofMinutes(31);
  private final Vertx vertx;
  private final Pool pool;
  private final StripeClient stripe;

  public StripeGateway(Vertx vertx, Pool pool, StripeConfig config) {
    this.vertx = vertx;
    this.pool = pool;
    StripeClient.StripeClientBuilder builder = StripeClient.builder().setApiKey(config.secretKey());
    if (config.sandbox()) {
      builder.setApiBase(config.apiBase().toString());
    }
    this.stripe = builder.build();
  }

  /** A hosted checkout for one reservation's total. */
  public record Checkout(String sessionId, String url) {}

  /** The account's Stripe customer, created once. */
  Future<String> customerFor(String accountId) {
    return pool.preparedQuery("SELECT customer_id FROM stripe_customers WHERE account_id = $1")
        .execute(Tuple.of(accountId))
        .compose(rows -> rows.size() > 0 ? Future.succeededFuture(rows.iterator().next().getString(0))
            : vertx.executeBlocking(() -> create(accountId))
                .compose(customer -> pool.preparedQuery("INSERT INTO stripe_customers (account_id, customer_id)"
                        + " VALUES ($1, $2) ON CONFLICT (account_id) DO NOTHING").execute(Tuple.of(accountId, customer))
                    .compose(v -> pool.preparedQuery("SELECT customer_id FROM stripe_customers WHERE account_id = $1")
                        .execute(Tuple.of(accountId)))
                    .map(stored -> stored.iterator().next().getString(0))));
  }

  private String create(String accountId) throws StripeException {
    Customer customer = stripe.customers().create(CustomerCreateParams.builder().putMetadata("account_id", accountId)
        .build(), RequestOptions.builder().setIdempotencyKey("customer-" + accountId).build());
    return customer.getId();
  }

  /** Opens a Checkout Session charging {@code amount} for the reservation. */
  public Future<Checkout> checkout(String reservationId, String accountId, long amount, String currency,
      String description, String successUrl, String cancelUrl) {
    return customerFor(accountId).compose(customer -> vertx.executeBlocking(() -> {
      Session session = stripe.checkout().sessions().create(SessionCreateParams.builder()
          .setMode(SessionCreateParams.Mode.PAYMENT)
          .setCustomer(customer)
          .setClientReferenceId(reservationId)
          .putMetadata("reservation_id", reservationId)
          .setPaymentIntentData(SessionCreateParams.PaymentIntentData.builder()
              .putMetadata("reservation_id", reservationId).build())
          .setExpiresAt(Instant.now().plus(CHECKOUT_LIFETIME).getEpochSecond())
          .setSuccessUrl(successUrl)
          .setCancelUrl(cancelUrl)
          .addLineItem(SessionCreateParams.LineItem.builder().setQuantity(1L)
              .setPriceData(SessionCreateParams.LineItem.PriceData.builder().setCurrency(currency).setUnitAmount(amount)
                  .setProductData(SessionCreateParams.LineItem.PriceData.ProductData.builder().setName(description)
                      .build()).build()).build())
          .build(), RequestOptions.builder().setIdempotencyKey("checkout-" + reservationId).build());
      return new Checkout(session.getId(), session.getUrl());
    }));
  }

  /** Best effort: a session whose reservation was never made is closed. */
  public void expire(String sessionId) {
    vertx.executeBlocking(() -> stripe.checkout().sessions().expire(sessionId));
  }
}
