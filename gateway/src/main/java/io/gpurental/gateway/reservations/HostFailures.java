package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Money;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.List;

/**
 * A host that cannot serve a paid reservation: it fails, its GPUs are released, and the hours not
 * delivered are refunded to the card as a downtime credit without anyone asking.
 */
final class HostFailures {
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final Payments payments;

  HostFailures(Vertx vertx, ReservationRepository repository, Payments payments) {
    this.vertx = vertx;
    this.repository = repository;
    this.payments = payments;
  }

  private record Failed(String accountId, List<String> refunds) {}

  Future<Boolean> failed(String id, String reason) {
    return repository.pool().withTransaction(tx -> tx.preparedQuery("SELECT status, account_id, currency,"
            + " lower(period) AS start_at, upper(period) AS end_at FROM reservations WHERE id = $1 FOR UPDATE")
        .execute(Tuple.of(id))
        .compose(rows -> {
          Row row = rows.size() == 0 ? null : rows.iterator().next();
          if (row == null || !ReservationStatus.of(row.getString("status")).paidAndLive()) {
            return Future.succeededFuture((Failed) null);
          }
          return ReservationRepository.amountKept(tx, id).compose(kept -> fail(tx, id, row, kept, reason));
        }))
        .compose(failed -> {
          if (failed == null) {
            return Future.succeededFuture(false);
          }
          CatalogChanges.publish(vertx, "reservation failed");
          return payments.executeRefunds(failed.refunds())
              .onComplete(v -> ReservationEvents.publish(vertx, id, failed.accountId(), ReservationStatus.FAILED.id())).map(true);
        });
  }

  private Future<Failed> fail(SqlConnection tx, String id, Row row, long kept, String reason) {
    RefundPolicy.Refund credit = repository.policy().downtimeCreditFor(kept,
        row.getOffsetDateTime("start_at").toInstant(), row.getOffsetDateTime("end_at").toInstant(), Instant.now());
    String cause = "host failure: " + reason + "; " + credit.unusedHours() + " h not delivered, credited "
        + Money.format(credit.amount(), row.getString("currency"));
    return ReservationRepository.transition(tx, id, ReservationStatus.of(row.getString("status")), ReservationStatus.FAILED,
        cause, true)
        .compose(v -> Payments.refundReservation(tx, id, credit.amount(), "downtime_credit"))
        .map(ids -> new Failed(row.getString("account_id"), ids));
  }
}
