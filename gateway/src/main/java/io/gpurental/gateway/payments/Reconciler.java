package io.gpurental.gateway.payments;

import io.gpurental.gateway.platform.jobs.JobRun;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs what webhooks and crashes left undone, as a cluster job (one node at a time; the work
 * itself is idempotent, so a second runner does no harm): lists Stripe's recent events and applies
 * those never received, oldest first, each on its own (one that fails is counted in
 * {@code gateway_reconcile_failures_total} and does not hold back the others), and retries refunds
 * still pending, and records the card fees of payments that have none yet.
 */
final class Reconciler {
  private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);
  private static final int MAX_EVENTS = 5_000;
  private final Pool pool;
  private final StripeGateway stripe;
  private final PaymentEvents events;
  private final Refunds refunds;
  private final CardFees fees;
  private final Duration lookback;
  private final Counter failures;

  Reconciler(Pool pool, StripeGateway stripe, PaymentEvents events, Refunds refunds, CardFees fees,
      Duration lookback, MeterRegistry metrics) {
    this.pool = pool;
    this.stripe = stripe;
    this.events = events;
    this.refunds = refunds;
    this.fees = fees;
    this.lookback = lookback;
    this.failures = Counter.builder("gateway.reconcile.failures")
        .description("Missed Stripe events the reconciler could not apply (each retried on the next run)")
        .register(metrics);
  }

  /** What one run did so far (a run's futures follow each other, so plain fields do). */
  private static final class Tally {
    int refunds;
    int missed;
    int applied;
    int failed;

    Payments.ReconcilerRun.Counts counts() {
      return new Payments.ReconcilerRun.Counts(refunds, missed, applied, failed);
    }
  }

  /**
   * One reconciliation: pending refunds first, then the missed events, then card fees not yet
   * recorded; the run is recorded (what it did, or the error that ended it) for the operator's
   * reconciliation status.
   */
  Future<Void> run(JobRun run) {
    Instant started = Instant.now();
    Tally tally = new Tally();
    return refunds.pending()
        .compose(ids -> {
          tally.refunds = ids.size();
          return refunds.executeAll(ids);
        })
        .compose(v -> run.stillCurrent()).compose(v -> missedEvents(tally))
        .compose(v -> run.stillCurrent()).compose(v -> fees.recordMissing())
        .transform(done -> done.cause() instanceof JobRun.CutByFreeze ? Future.<Void>failedFuture(done.cause())
            : ReconcilerRunRepository.record(pool, started, tally.counts(),
                done.failed() ? String.valueOf(done.cause().getMessage()) : null)
            .recover(failure -> {
              LOG.warn("Could not record the reconciliation run: {}", failure.getMessage());
              return Future.succeededFuture();
            })
            .compose(v -> done.failed() ? Future.<Void>failedFuture(done.cause()) : Future.<Void>succeededFuture()));
  }

  /** The status every node reports from the recorded runs. */
  Future<Payments.ReconciliationStatus> status(Duration interval) {
    return ReconcilerRunRepository.status(pool, interval);
  }

  private Future<Void> missedEvents(Tally tally) {
    return stripe.eventsSince(Instant.now().minus(lookback), MAX_EVENTS).compose(recent -> {
      List<StripeEvent> handled = recent.stream().filter(e -> PaymentEvents.HANDLED.contains(e.type())).toList();
      if (handled.isEmpty()) {
        return Future.succeededFuture();
      }
      return PaymentRepository.recordedEvents(pool, handled.stream().map(StripeEvent::id).toList())
          .compose(seen -> {
            // oldest first, as they happened
            List<StripeEvent> missed = new ArrayList<>(handled.stream().filter(e -> !seen.contains(e.id())).toList());
            Collections.reverse(missed);
            tally.missed = missed.size();
            Future<Void> inOrder = Future.succeededFuture();
            for (StripeEvent event : missed) {
              inOrder = inOrder.compose(v -> applyAlone(event, tally));
            }
            return inOrder;
          });
    });
  }

  /**
   * Applies one missed event; a failure is logged and counted and never stops the events after it
   * (the event stays unrecorded, so the next run tries it again).
   */
  private Future<Void> applyAlone(StripeEvent event, Tally tally) {
    return Future.succeededFuture().compose(v -> events.apply(event))
        .<Void>map(applied -> {
          if (applied) {
            tally.applied++;
            LOG.warn("Applied Stripe event {} ({}) that no webhook delivered", event.id(), event.type());
          }
          return null;
        })
        .recover(failure -> {
          tally.failed++;
          failures.increment();
          LOG.error("Could not apply the missed Stripe event {} ({}); the next run retries it: {}", event.id(),
              event.type(), failure.getMessage());
          return Future.succeededFuture();
        });
  }
}
