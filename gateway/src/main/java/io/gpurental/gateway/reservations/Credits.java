package io.gpurental.gateway.reservations;

import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.Money;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The credit policy: every started hour of what went wrong, at the hourly rate actually paid
 * (what the reservation's payments captured over its hours), never more than is left after
 * earlier refunds, and no fee. A credit is written once per event and its money moves through the
 * payments feature's refund path (so it is in the ledger), decided in the caller's transaction.
 */
final class Credits {
  static final String READY_LATE = "ready_late";
  static final String NEVER_READY = "never_ready";
  static final String DOWNTIME = "downtime";
  static final String HOST_FAILED = "host_failed";

  private Credits() {}

  /** Started hours of {@code from}–{@code to}: a begun hour counts whole, in the renter's favour. */
  static int startedHours(Instant from, Instant to) {
    long seconds = Math.max(0, Duration.between(from, to).toSeconds());
    return (int) ((seconds + 3599) / 3600);
  }

  /** What {@code hours} are worth of this reservation: its captured amount pro rata, capped at what it keeps. */
  static long amountFor(CreditRepository.Basis basis, int hours) {
    long total = basis.totalHours();
    if (total <= 0 || hours <= 0) {
      return 0;
    }
    long worth = Math.multiplyExact(basis.captured(), Math.min(hours, total)) / total;
    return Math.min(worth, basis.kept());
  }

  /**
   * Credits {@code hours} of what happened from {@code from} to {@code to}, unless it was credited
   * already; the refunds to execute after commit (none when credited before or worth nothing).
   */
  static Future<List<String>> grant(SqlConnection tx, String reservationId, CreditRepository.Basis basis, String kind,
      String reason, Instant from, Instant to, int hours) {
    long amount = amountFor(basis, hours);
    CreditRepository.NewCredit credit = new CreditRepository.NewCredit(Ids.newId("crd"), reservationId, kind, reason,
        from, to, Math.min(hours, (int) basis.totalHours()), amount, basis.currency());
    return CreditRepository.insert(tx, credit).compose(written -> {
      if (written.isEmpty()) {
        return Future.succeededFuture(List.<String>of());
      }
      String cause = "credited " + Money.format(amount, basis.currency()) + " (" + credit.hours() + " h): " + reason;
      return Payments.refundReservation(tx, reservationId, amount, refundReason(kind))
          .compose(refunds -> CreditRepository.attachRefunds(tx, credit.id(), refunds)
              .compose(v -> ReservationRepository.event(tx, reservationId, basis.status().id(), basis.status().id(),
                  cause))
              .map(refunds));
    });
  }

  /** How the ledger and the renter's refund list tell the credits apart. */
  static String refundReason(String kind) {
    return READY_LATE.equals(kind) || NEVER_READY.equals(kind) ? "ready_credit" : "downtime_credit";
  }
}
