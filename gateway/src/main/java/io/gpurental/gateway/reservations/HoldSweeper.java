package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.Lock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases unpaid holds once they lapse. Every node ticks; a cluster-wide Hazelcast lock lets one
 * of them sweep at a time (less work, not correctness: the SQL only touches lapsed holds, so a
 * sweep run twice, or by a node that lost its lock, does no harm, and a dead node's lock is
 * released by the cluster).
 */
final class HoldSweeper {
  private static final Logger LOG = LoggerFactory.getLogger(HoldSweeper.class);
  private static final String LOCK = "reservations.hold-sweeper";
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final long periodMs;

  HoldSweeper(Vertx vertx, ReservationRepository repository, long periodMs) {
    this.vertx = vertx;
    this.repository = repository;
    this.periodMs = periodMs;
  }

  private long timer = -1;

  void start() {
    timer = vertx.setPeriodic(periodMs, id -> sweep());
  }

  void stop() {
    vertx.cancelTimer(timer);
  }

  void sweep() {
    vertx.sharedData().getLockWithTimeout(LOCK, 10).onSuccess(lock -> repository.expireHolds()
        .onSuccess(expired -> {
          if (!expired.isEmpty()) {
            LOG.info("Released {} lapsed hold(s)", expired.size());
            expired.forEach(r -> ReservationEvents.publish(vertx, r[0], r[1], ReservationStatus.EXPIRED.id()));
            CatalogChanges.publish(vertx, "holds expired");
          }
        })
        .onFailure(e -> LOG.warn("Hold sweep failed; the next tick retries", e))
        .onComplete(done -> lock.release()));
  }
}
