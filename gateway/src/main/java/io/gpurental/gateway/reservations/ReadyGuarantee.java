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
        + " Pulling an image of your own (not one of our templates) is your time, not a delay: it is"
        + " not counted. Downtime while it runs is credited by the started hour.";
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
      return InstanceProgressRepository.ownImagePull(tx, id).compose(pull -> {
        // the renter's own image: its pull is the renter's time, not the host's delay
        Duration pulling = pull.map(InstanceProgressRepository.OwnImagePull::duration).orElse(Duration.ZERO);
        Duration delay = Duration.between(basis.dueAt(), now).minus(pulling);
        if (delay.compareTo(deadline) <= 0) {
          return Future.succeededFuture(List.<String>of());
        }
        String reason = "ready " + minutes(delay) + " min after it was due (guarantee: " + deadline.toMinutes() + " min"
            + (pull.isPresent() ? "; the " + minutes(pulling) + " min pulling your own image not counted" : "") + ")";
        Instant lateUntil = basis.dueAt().plus(delay);
        return Credits.grant(tx, id, basis, Credits.READY_LATE, reason, basis.dueAt(), lateUntil,
            Credits.startedHours(basis.dueAt(), lateUntil));
      });
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
      return InstanceProgressRepository.ownImagePull(tx, id).compose(pull -> {
        // still pulling the renter's own image at the end: only the time before its pull is the host's
        Instant hostsUntil = pull.map(InstanceProgressRepository.OwnImagePull::first).orElse(basis.end());
        int hours = pull.isEmpty() ? (int) basis.totalHours() : Credits.startedHours(basis.dueAt(), hostsUntil);
        String reason = "never became ready before the window ended"
            + (pull.isEmpty() ? "" : " (your own image was pulling from " + pull.get().first() + ")");
        return Credits.grant(tx, id, basis, Credits.NEVER_READY, reason, basis.dueAt(), hostsUntil, hours)
          .compose(refunds -> ReservationRepository.transition(tx, id, ReservationStatus.PROVISIONING,
                  ReservationStatus.FAILED, reason + (pull.isEmpty() ? "; refunded in full" : "; " + hours
                      + " h before the pull credited"), true)
              .map(moved -> moved ? new HostFailures.Failed(id, basis.accountId(), refunds) : null));
      });
    });
  }

  private static long minutes(Duration delay) {
    return (delay.toSeconds() + 59) / 60;
  }
}
