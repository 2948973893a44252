package io.gpurental.gateway.payments;

import io.gpurental.gateway.config.StripeConfig;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.platform.jobs.ClusterJobs;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import java.time.Duration;

/**
 * Card payments: checkout and saved cards, Stripe's webhooks confirming what was paid, refunds,
 * the ledger and its check, and the reconciler that repairs missed events.
 */
public final class PaymentsFeature implements Feature {
  public static final String RECONCILE = "payments.reconcile";
  private final StripeWebhooks webhooks;
  private final SavedCards cards;
  private final PaymentsApi api;
  private final Reconciler reconciler;
  private final Payments payments;
  private final StripeEventRetention eventRetention;
  private final Duration reconcileEvery;
  private final Pool pool;

  public PaymentsFeature(Vertx vertx, Pool pool, StripeConfig config, String publicBase, MeterRegistry metrics) {
    this.pool = pool;
    StripeGateway stripe = new StripeGateway(vertx, pool, config);
    Refunds refunds = new Refunds(pool, stripe);
    RegisteredOutcomes outcomes = new RegisteredOutcomes();
    PaymentRecords records = new PaymentRecords(outcomes);
    CardFees fees = new CardFees(pool, stripe);
    PaymentEvents events = new PaymentEvents(pool, stripe, refunds, records, outcomes, fees);
    this.webhooks = new StripeWebhooks(vertx, events, config.webhookSecret());
    this.cards = new SavedCards(pool, stripe, publicBase);
    this.api = new PaymentsApi(pool);
    this.payments = new Payments(pool, stripe, cards, refunds, events, records, outcomes);
    this.reconciler = new Reconciler(pool, stripe, events, refunds, fees, config.reconcileLookback(),
        metrics);
    this.reconcileEvery = config.reconcileInterval();
    this.eventRetention = new StripeEventRetention(pool, config.reconcileLookback());
  }

  /** The payment operations reservations use. */
  public Payments payments() {
    return payments;
  }

  @Override
  public void bind(RouterBuilder routes) {
    webhooks.bind(routes);
    cards.bind(routes);
    api.bind(routes);
  }

  /**
   * Forgets applied Stripe events older than the reconciliation lookback plus a day (this
   * feature owns the table; a cluster job calls it).
   */
  public Future<Integer> pruneStripeEvents() {
    return eventRetention.prune();
  }

  /** The ledger check and the reconciler's status, for the operator. */
  public PaymentsOversight oversight() {
    return new PaymentsOversight(pool, reconciler, reconcileEvery);
  }

  /** Schedules this feature's cluster jobs: the reconciler. */
  public void scheduleJobs(ClusterJobs jobs) {
    jobs.schedule(RECONCILE, reconcileEvery, reconciler::run);
  }
}
