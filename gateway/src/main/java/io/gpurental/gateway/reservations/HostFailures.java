package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Money;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.SqlConnection;
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
  private final Fleet instances;

  HostFailures(Vertx vertx, ReservationRepository repository, Payments payments, Fleet instances) {
    this.vertx = vertx;
    this.repository = repository;
    this.payments = payments;
    this.instances = instances;
  }

  private record Failed(String accountId, List<String> refunds) {}

  Future<Boolean> failed(String id, String reason) {
    return repository.pool().withTransaction(tx -> ReservationRepository.lock(tx, id)
        .compose(found -> {
          if (found.isEmpty() || !found.get().status().paidAndLive()) {
            return Future.succeededFuture((Failed) null);
          }
          return PaymentViewRepository.amountKept(tx, id).compose(kept -> fail(tx, id, found.get(), kept, reason));
        }))
        .compose(failed -> {
          if (failed == null) {
            return Future.succeededFuture(false);
          }
          CatalogChanges.publish(vertx, "reservation failed");
          // nothing of a failed instance is wanted on its host any more: the agent cleans it up
          instances.stop(id);
          return payments.executeRefunds(failed.refunds())
              .onComplete(v -> ReservationEvents.publish(vertx, id, failed.accountId(), ReservationStatus.FAILED.id())).map(true);
        });
  }

  private Future<Failed> fail(SqlConnection tx, String id, ReservationRepository.Locked row, long kept, String reason) {
    RefundPolicy.Refund credit = repository.policy().downtimeCreditFor(kept, row.start(), row.end(), Instant.now());
    String cause = "host failure: " + reason + "; " + credit.unusedHours() + " h not delivered, credited "
        + Money.format(credit.amount(), row.currency());
    return ReservationRepository.transition(tx, id, row.status(), ReservationStatus.FAILED, cause, true)
        .compose(v -> Payments.refundReservation(tx, id, credit.amount(), "downtime_credit"))
        .map(ids -> new Failed(row.accountId(), ids));
  }
}
