package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forgets applied Stripe events once the reconciler can no longer list them: it looks back
 * {@code lookback} from now by the events' creation time, and an event is received after it is
 * created, so a row older than the lookback (plus a margin for clocks) is never asked about again.
 */
final class StripeEventRetention {
  static final Duration MARGIN = Duration.ofHours(24);
  private static final Logger LOG = LoggerFactory.getLogger(StripeEventRetention.class);
  private final Pool pool;
  private final Duration retention;

  StripeEventRetention(Pool pool, Duration lookback) {
    this.pool = pool;
    this.retention = lookback.plus(MARGIN);
  }

  /** Deletes the events received before the retention; completes with how many. */
  Future<Integer> prune() {
    return PaymentRepository.pruneEvents(pool, retention.toSeconds())
        .map(pruned -> {
          if (pruned > 0) {
            LOG.info("Pruned {} Stripe event(s) received over {} h ago", pruned, retention.toHours());
          }
          return pruned;
        });
  }
}
