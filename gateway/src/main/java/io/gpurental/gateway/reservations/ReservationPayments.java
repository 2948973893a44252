package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.payments.PaymentOutcomes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

/**
 * What a payment does to the reservation (or extension) it paid for, inside the payment's own
 * transaction. A payment that arrives after its hold lapsed still confirms when the same GPUs are
 * free; otherwise the caller refunds it. An extension's payment counts only while the reservation's
 * window is still open: paid after the end, it is refunded and the reservation stays ended.
 */
final class ReservationPayments implements PaymentOutcomes {
  private final Vertx vertx;

  ReservationPayments(Vertx vertx) {
    this.vertx = vertx;
  }

  @Override
  public Future<Void> lock(SqlConnection tx, String reservationId) {
    return tx.preparedQuery("SELECT id FROM reservations WHERE id = $1 FOR UPDATE").execute(Tuple.of(reservationId))
        .mapEmpty();
  }

  @Override
  public void announce(Paid paid) {
    ReservationEvents.publish(vertx, paid.reservationId(), paid.accountId(), paid.status());
    CatalogChanges.publish(vertx, "reservation paid");
  }

  @Override
  public Future<Paid> paid(SqlConnection tx, String reservationId, String extensionId, String cause) {
    return extensionId == null ? reservationPaid(tx, reservationId, cause)
        : extensionPaid(tx, reservationId, extensionId, cause);
  }

  /** A payment that failed for good: an unpaid hold is released at once. */
  @Override
  public Future<Void> unpaid(SqlConnection tx, String reservationId, String extensionId, String cause) {
    if (extensionId != null) {
      return tx.preparedQuery("UPDATE reservation_extensions SET status = 'cancelled', hold_expires_at = NULL"
              + " WHERE id = $1 AND status = 'pending_payment' RETURNING id").execute(Tuple.of(extensionId))
          .compose(rows -> rows.size() == 0 ? Future.succeededFuture()
              : tx.preparedQuery("UPDATE reservation_gpus SET active = false WHERE extension_id = $1")
                  .execute(Tuple.of(extensionId)).mapEmpty());
    }
    return ReservationRepository.transition(tx, reservationId, ReservationStatus.PENDING_PAYMENT, ReservationStatus.CANCELLED, cause,
        true).mapEmpty();
  }

  private static Future<Paid> reservationPaid(SqlConnection tx, String id, String cause) {
    return lockReservation(tx, id).compose(row -> {
      ReservationStatus status = ReservationStatus.of(row.getString("status"));
      String account = row.getString("account_id");
      if (status == ReservationStatus.PENDING_PAYMENT) {
        return ReservationRepository.transition(tx, id, status, ReservationStatus.CONFIRMED, cause, false)
            .map(v -> new Paid(true, account, id, ReservationStatus.CONFIRMED.id()));
      }
      if (status == ReservationStatus.EXPIRED && row.getBoolean("window_open")) {
        return reclaim(tx, "reservation_id = $1 AND extension_id IS NULL", id).compose(reclaimed -> !reclaimed
            ? Future.succeededFuture(new Paid(false, account, id, status.id()))
            : ReservationRepository.transition(tx, id, status, ReservationStatus.CONFIRMED,
                    cause + ", after the hold lapsed; the GPUs were still free", false)
                .map(v -> new Paid(true, account, id, ReservationStatus.CONFIRMED.id())));
      }
      return Future.succeededFuture(new Paid(false, account, id, status.id()));
    });
  }

  private static Future<Paid> extensionPaid(SqlConnection tx, String id, String extensionId, String cause) {
    return lockReservation(tx, id).compose(row -> tx.preparedQuery("SELECT status, hours, upper(period) AS ends,"
            + " upper(period) > now() AS window_open FROM reservation_extensions WHERE id = $1 FOR UPDATE")
        .execute(Tuple.of(extensionId)).compose(rows -> {
          Row extension = rows.iterator().next();
          String account = row.getString("account_id");
          String status = row.getString("status");
          String extensionStatus = extension.getString("status");
          // the window ends on time: a payment for more hours that arrives after it ended buys nothing
          boolean live = ReservationStatus.of(status).paidAndLive() && row.getBoolean("window_open");
          Future<Boolean> held = !live ? Future.succeededFuture(false)
              : "pending_payment".equals(extensionStatus) ? Future.succeededFuture(true)
              : "expired".equals(extensionStatus) && extension.getBoolean("window_open")
                  ? reclaim(tx, "extension_id = $1", extensionId) : Future.succeededFuture(false);
          return held.compose(ok -> !ok ? Future.succeededFuture(new Paid(false, account, id, status))
              : tx.preparedQuery("UPDATE reservation_extensions SET status = 'confirmed', hold_expires_at = NULL"
                      + " WHERE id = $1").execute(Tuple.of(extensionId))
                  .compose(v -> tx.preparedQuery("UPDATE reservations SET period = tstzrange(lower(period), $2),"
                      + " updated_at = now() WHERE id = $1").execute(Tuple.of(id, extension.getOffsetDateTime("ends"))))
                  .compose(v -> ReservationRepository.event(tx, id, status, status, "extended by "
                      + extension.getInteger("hours") + " h (" + cause + ")"))
                  .map(v -> new Paid(true, account, id, status)));
        }));
  }

  private static Future<Row> lockReservation(SqlConnection tx, String id) {
    return tx.preparedQuery("SELECT status, account_id, upper(period) > now() AS window_open FROM reservations"
        + " WHERE id = $1 FOR UPDATE").execute(Tuple.of(id)).map(rows -> rows.iterator().next());
  }

  /**
   * Re-activates released GPU rows if nobody took them meanwhile (else leaves them released). A
   * booking racing this one makes the exclusion constraint fail the whole transaction; the
   * payment's report is then retried (webhook redelivery, reconciler) and finds the GPUs taken.
   */
  private static Future<Boolean> reclaim(SqlConnection tx, String where, String id) {
    return tx.preparedQuery("SELECT bool_and(NOT EXISTS (SELECT 1 FROM reservation_gpus o WHERE o.gpu_id = rg.gpu_id"
            + " AND o.active AND o.period && rg.period)) FROM reservation_gpus rg WHERE " + where)
        .execute(Tuple.of(id))
        .compose(rows -> !Boolean.TRUE.equals(rows.iterator().next().getBoolean(0)) ? Future.succeededFuture(false)
            : tx.preparedQuery("UPDATE reservation_gpus SET active = true WHERE " + where).execute(Tuple.of(id))
                .map(true));
  }
}
