package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Money;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
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
    return repository.pool().withTransaction(tx -> tx.preparedQuery("SELECT r.status, r.account_id, r.currency,"
            + " lower(r.period) AS start_at, upper(r.period) AS end_at, (SELECT coalesce(sum(p.amount"
            + " - p.amount_refunded), 0) FROM payments p WHERE p.reservation_id = r.id"
            + " AND p.status IN ('succeeded', 'refunded')) AS amount_kept FROM reservations r WHERE r.id = $1"
            + " FOR UPDATE OF r").execute(Tuple.of(id))
        .compose(rows -> {
          Row row = rows.size() == 0 ? null : rows.iterator().next();
          if (row == null || !Lifecycle.PAID_AND_LIVE.contains(row.getString("status"))) {
            return Future.succeededFuture((Failed) null);
          }
          RefundPolicy.Refund credit = repository.policy().downtimeCreditFor(row.getLong("amount_kept"),
              row.getOffsetDateTime("start_at").toInstant(), row.getOffsetDateTime("end_at").toInstant(), Instant.now());
          String cause = "host failure: " + reason + "; " + credit.unusedHours() + " h not delivered, credited "
              + Money.format(credit.amount(), row.getString("currency"));
          return ReservationRepository.transition(tx, id, row.getString("status"), Lifecycle.FAILED, cause, true)
              .compose(v -> Payments.refundReservation(tx, id, credit.amount(), "downtime_credit"))
              .map(ids -> new Failed(row.getString("account_id"), ids));
        }))
        .compose(failed -> {
          if (failed == null) {
            return Future.succeededFuture(false);
          }
          ReservationEvents.publish(vertx, id, failed.accountId(), Lifecycle.FAILED);
          CatalogChanges.publish(vertx, "reservation failed");
          return payments.executeRefunds(failed.refunds()).map(true);
        });
  }
}
