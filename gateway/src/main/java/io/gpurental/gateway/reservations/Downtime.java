package io.gpurental.gateway.reservations;

import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Futures;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downtime credit: a running instance the fleet stopped serving (host offline, GPU faulty) is
 * interrupted; back within the grace, the lost time is credited (started hours, no fee) and the
 * reservation continues; not back, it fails and the rest of the window is refunded with the lost
 * time ({@link HostFailures}).
 */
final class Downtime {
  private static final Logger LOG = LoggerFactory.getLogger(Downtime.class);
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final Pool pool;
  private final Duration grace;
  private final HostFailures failures;
  private final Payments payments;

  Downtime(Vertx vertx, ReservationRepository repository, Duration grace, HostFailures failures, Payments payments) {
    this.vertx = vertx;
    this.repository = repository;
    this.pool = repository.pool();
    this.grace = grace;
    this.failures = failures;
    this.payments = payments;
  }

  /** Opens the interruption (once; a repeated report keeps the first {@code since}). */
  Future<Boolean> interrupted(String id, String reason, Instant since) {
    return pool.withTransaction(tx -> interrupt(tx, id, reason, since)).onSuccess(opened -> announce(id, opened));
  }

  /** Closes the interruption at {@code at}: the lost time is credited and the reservation goes on. */
  Future<Boolean> resumed(String id, Instant at) {
    return pool.withTransaction(tx -> CreditRepository.lock(tx, id)
            .compose(found -> resume(tx, id, found.orElse(null), at)))
        .compose(refunds -> afterResuming(id, refunds));
  }

  private static Future<Boolean> interrupt(SqlConnection tx, String id, String reason, Instant since) {
    return CreditRepository.interrupt(tx, id, since, reason).compose(opened -> opened.isEmpty()
        ? Future.succeededFuture(false)
        : ReservationRepository.event(tx, id, ReservationStatus.RUNNING.id(), ReservationStatus.RUNNING.id(),
            "interrupted: " + reason + " since " + opened.get()).map(true));
  }

  /** Credits the open interruption up to {@code at} and closes it; the refunds to run, null when there was none. */
  private static Future<List<String>> resume(SqlConnection tx, String id, CreditRepository.Basis basis, Instant at) {
    if (basis == null || basis.interruptedSince() == null || basis.status() != ReservationStatus.RUNNING) {
      return Future.succeededFuture(null);
    }
    Instant since = basis.interruptedSince();
    String reason = basis.interruptedReason() + " from " + since + " to " + at;
    return Credits.grant(tx, id, basis, Credits.DOWNTIME, reason, since, at, Credits.startedHours(since, at))
        .compose(refunds -> CreditRepository.clearInterruption(tx, id).map(refunds));
  }

  private Future<Boolean> afterResuming(String id, List<String> refunds) {
    return refunds == null ? Future.succeededFuture(false)
        : payments.executeRefunds(refunds).onComplete(v -> announce(id, true)).map(true);
  }

  /**
   * The scheduler's level-triggered pass: the fleet's notices are edges, and one lost after the
   * fleet committed (a failed call, a node stopping) would leave a reservation on a dead host
   * uninterrupted, or interrupted forever after its host came back. Each pass interrupts and
   * resumes whatever disagrees with the fleet's current view, with the times the fleet recorded.
   */
  Future<Void> reconcileWithFleet() {
    return CreditRepository.serviceDrift(pool, null).compose(drifts -> Futures.inSequence(drifts, drift ->
        repair(drift.id())
            .onSuccess(repaired -> repaired.ifPresent(down -> LOG.warn(
                "Reservation {} was {} without the fleet's notice; repaired", drift.id(),
                down ? "down (" + drift.reason() + ")" : "served again")))
            .<Void>mapEmpty()
            .recover(e -> {
              LOG.warn("Reservation {}: its downtime could not be repaired; the next pass retries: {}", drift.id(),
                  e.getMessage());
              return Future.succeededFuture();
            })));
  }

  /**
   * Repairs one reservation under its row lock, from the fleet's state read again after the lock
   * (the list the pass started from may be stale by then: a notice may have arrived meanwhile).
   * Answers whether it was found down (true) or served again (false), empty when nothing changed.
   */
  private Future<Optional<Boolean>> repair(String id) {
    record Repaired(Boolean down, List<String> refunds) {}
    return pool.withTransaction(tx -> CreditRepository.lock(tx, id).compose(found -> CreditRepository
        .serviceDrift(tx, id).compose(drifts -> {
          if (found.isEmpty() || drifts.isEmpty()) {
            return Future.succeededFuture(new Repaired(null, null));
          }
          CreditRepository.Drift drift = drifts.get(0);
          if (drift.down()) {
            return interrupt(tx, id, drift.reason(), drift.downSince() == null ? Instant.now() : drift.downSince())
                .map(opened -> new Repaired(opened ? true : null, null));
          }
          Instant since = found.get().interruptedSince();
          Instant at = drift.upSince() == null || !drift.upSince().isAfter(since) ? Instant.now() : drift.upSince();
          return resume(tx, id, found.get(), at).map(refunds -> new Repaired(refunds == null ? null : false, refunds));
        })))
        .compose(repaired -> {
          if (Boolean.TRUE.equals(repaired.down())) {
            announce(id, true);
          }
          return (repaired.refunds() == null ? Future.succeededFuture(false) : afterResuming(id, repaired.refunds()))
              .map(v -> Optional.ofNullable(repaired.down()));
        });
  }

  /** The scheduler's pass: interruptions past the grace (or past the window's end) fail their reservation. */
  Future<Void> failOverdue() {
    return CreditRepository.overdueInterruptions(pool, grace).compose(ids -> Futures.inSequence(ids,
        id -> pool.withTransaction(tx -> failIfOverdue(tx, id)).compose(failures::announce)));
  }

  private Future<HostFailures.Failed> failIfOverdue(SqlConnection tx, String id) {
    return CreditRepository.lock(tx, id).compose(found -> {
      CreditRepository.Basis basis = found.orElse(null);
      Instant now = Instant.now();
      if (basis == null || basis.interruptedSince() == null || basis.status() != ReservationStatus.RUNNING
          || (basis.interruptedSince().plus(grace).isAfter(now) && basis.end().isAfter(now))) {
        return Future.succeededFuture((HostFailures.Failed) null);
      }
      String cause = basis.interruptedReason() + " since " + basis.interruptedSince() + ", not back within "
          + grace.toMinutes() + " min";
      return CreditRepository.clearInterruption(tx, id)
          .compose(v -> failures.fail(tx, id, basis, cause, basis.interruptedSince()));
    });
  }

  private void announce(String id, boolean changed) {
    if (changed) {
      repository.accountOf(id)
          .onSuccess(account -> ReservationEvents.publish(vertx, id, account, ReservationStatus.RUNNING.id()));
    }
  }
}
