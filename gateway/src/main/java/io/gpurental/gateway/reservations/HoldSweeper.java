package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases unpaid holds once they lapse; a cluster job runs it on one node at a time (less work,
 * not correctness: the SQL only touches lapsed holds, so a sweep run twice, or by a node that lost
 * its lock, does no harm).
 */
final class HoldSweeper {
  private static final Logger LOG = LoggerFactory.getLogger(HoldSweeper.class);
  private final Vertx vertx;
  private final ReservationRepository repository;

  HoldSweeper(Vertx vertx, ReservationRepository repository) {
    this.vertx = vertx;
    this.repository = repository;
  }

  Future<?> sweep() {
    return repository.expireHolds()
        .onSuccess(expired -> {
          if (!expired.isEmpty()) {
            LOG.info("Released {} lapsed hold(s)", expired.size());
            expired.forEach(r -> ReservationEvents.publish(vertx, r[0], r[1], ReservationStatus.EXPIRED.id()));
            CatalogChanges.publish(vertx, "holds expired");
          }
        });
  }
}
