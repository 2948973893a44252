package io.gpurental.gateway.reservations;

import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.fleet.InstanceEvents;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a launch to its host, and again after a short backoff when that fails: a handover refused
 * by a passing overload (the database pool's wait queue full, answered at once) was otherwise
 * retried only once the reservation counted as stuck (2 minutes), the renter's paid minutes
 * running meanwhile. Handing over twice is harmless (the fleet's start is idempotent); after the
 * last try the stuck-launch pass remains, on whichever node runs the scheduler.
 */
final class Handover {
  private static final Logger LOG = LoggerFactory.getLogger(Handover.class);
  static final int TRIES = 6;
  private final Vertx vertx;
  private final Fleet fleet;
  private final long firstBackoffMs;

  Handover(Vertx vertx, Fleet fleet, long firstBackoffMs) {
    this.vertx = vertx;
    this.fleet = fleet;
    this.firstBackoffMs = firstBackoffMs;
  }

  /** Succeeds once the host took the launch; fails with the last error after {@link #TRIES} tries. */
  Future<Void> start(Fleet.Launch launch, InstanceEvents events) {
    Promise<Void> done = Promise.promise();
    attempt(launch, events, 1, done);
    return done.future();
  }

  private void attempt(Fleet.Launch launch, InstanceEvents events, int tryNumber, Promise<Void> done) {
    fleet.start(launch, events).onComplete(ar -> {
      if (ar.succeeded()) {
        done.complete();
      } else if (tryNumber >= TRIES) {
        LOG.warn("Host did not take {} after {} tries: {}; retried once it counts as stuck", launch.reservationId(),
            TRIES, ar.cause().getMessage());
        done.fail(ar.cause());
      } else {
        long backoff = firstBackoffMs << (tryNumber - 1);
        LOG.info("Host did not take {} ({}); again in {} ms", launch.reservationId(), ar.cause().getMessage(), backoff);
        vertx.setTimer(backoff, t -> attempt(launch, events, tryNumber + 1, done));
      }
    });
  }
}
