package io.gpurental.gateway.reservations;

import io.gpurental.gateway.platform.Futures;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The ready guarantee: an instance not running within the deadline of being due credits every
 * started hour of the delay (running − due) when it runs; one that never runs before its window
 * ends fails ("never became ready") and is refunded in full.
 */
final class ReadyGuarantee {
  private final Pool pool;
  private final Duration deadline;
  private final HostFailures failures;

  ReadyGuarantee(Pool pool, Duration deadline, HostFailures failures) {
    this.pool = pool;
    this.deadline = deadline;
    this.failures = failures;
  }

  /** The guarantee in words, next to the cancellation policy in every quote. */
  static String describe(Duration deadline) {
    // shown under a "Ready guarantee" heading, like the cancellation policy: no title of its own
    return "If your instance is not running within " + deadline.toMinutes() + " minutes of the"
        + " start (or of your payment, if later), every started hour of delay is credited to your card"
        + " automatically; if it never starts before the window ends, you get everything back."
        + " Downtime while it runs is credited by the started hour.";
  }

  /**
   * In the transaction that made the reservation running: the credit for a late start, if it was
   * late; the refunds to execute after commit.
   */
  Future<List<String>> onRunning(SqlConnection tx, String id) {
    Instant now = Instant.now();
    return CreditRepository.lock(tx, id).compose(found -> {
      if (found.isEmpty() || found.get().dueAt() == null) {
        return Future.succeededFuture(List.of());
      }
      CreditRepository.Basis basis = found.get();
      Duration delay = Duration.between(basis.dueAt(), now);
      if (delay.compareTo(deadline) <= 0) {
        return Future.succeededFuture(List.of());
      }
      String reason = "ready " + minutes(delay) + " min after it was due (guarantee: " + deadline.toMinutes() + " min)";
      return Credits.grant(tx, id, basis, Credits.READY_LATE, reason, basis.dueAt(), now,
          Credits.startedHours(basis.dueAt(), now));
    });
  }

  /** Windows over whose instance never ran: each fails and is refunded everything it keeps. */
  Future<Void> failNeverReady() {
    return CreditRepository.neverReady(pool).compose(ids -> Futures.inSequence(ids,
        id -> pool.withTransaction(tx -> failIfNeverReady(tx, id)).compose(failures::announce)));
  }

  private Future<HostFailures.Failed> failIfNeverReady(SqlConnection tx, String id) {
    return CreditRepository.lock(tx, id).compose(found -> {
      CreditRepository.Basis basis = found.orElse(null);
      if (basis == null || basis.status() != ReservationStatus.PROVISIONING || basis.end().isAfter(Instant.now())) {
        return Future.succeededFuture((HostFailures.Failed) null);
      }
      String reason = "never became ready before the window ended";
      return Credits.grant(tx, id, basis, Credits.NEVER_READY, reason, basis.dueAt(), basis.end(),
              (int) basis.totalHours())
          .compose(refunds -> ReservationRepository.transition(tx, id, ReservationStatus.PROVISIONING,
                  ReservationStatus.FAILED, reason + "; refunded in full", true)
              .map(moved -> moved ? new HostFailures.Failed(id, basis.accountId(), refunds) : null));
    });
  }

  private static long minutes(Duration delay) {
    return (delay.toSeconds() + 59) / 60;
  }
}
