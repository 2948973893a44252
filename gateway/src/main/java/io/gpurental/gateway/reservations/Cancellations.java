package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Cancels a reservation. An unpaid hold is released. A paid one is released and refunded by the
 * {@link RefundPolicy}, in the same transaction that decides the refund (written pending, so it
 * cannot be lost), and Stripe is asked after the commit; a running instance is stopped.
 */
final class Cancellations {
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final Payments payments;
  private final Fleet instances;

  Cancellations(Vertx vertx, ReservationRepository repository, Payments payments, Fleet instances) {
    this.vertx = vertx;
    this.repository = repository;
    this.payments = payments;
    this.instances = instances;
  }

  private record Cancelled(String accountId, ReservationStatus was, List<String> refunds, List<String> openCheckouts) {}

  Future<JsonObject> cancel(Principal caller, String id) {
    return repository.pool().withTransaction(tx -> lock(tx, id, caller).compose(row ->
        ReservationRepository.amountKept(tx, id).compose(kept -> {
          ReservationStatus status = ReservationStatus.of(row.getString("status"));
          boolean paid = status.paidAndLive();
          if (!paid && status != ReservationStatus.PENDING_PAYMENT) {
            throw new Conflict("This reservation is " + status + "; only pending, confirmed, provisioning or running"
                + " reservations can be cancelled.", new JsonObject().put("status", status.id()));
          }
          RefundPolicy.Refund refund = paid ? repository.policy().refundFor(kept,
              row.getOffsetDateTime("start_at").toInstant(), row.getOffsetDateTime("end_at").toInstant(), Instant.now())
              : new RefundPolicy.Refund(0, 0, 0);
          String currency = row.getString("currency");
          String cause = "cancelled by " + by(caller, row.getString("account_id"))
              + (paid ? "; refund " + Money.format(refund.amount(), currency)
                  + (refund.fee() > 0 ? " after a " + Money.format(refund.fee(), currency) + " fee" : "") : "");
          return ReservationRepository.transition(tx, id, status, ReservationStatus.CANCELLED, cause, true)
              .compose(v -> tx.preparedQuery("UPDATE reservation_extensions SET status = 'cancelled',"
                  + " hold_expires_at = NULL WHERE reservation_id = $1 AND status = 'pending_payment'").execute(Tuple.of(id)))
              .compose(v -> Payments.cancelPending(tx, id))
              .compose(sessions -> Payments.refundReservation(tx, id, refund.amount(), "cancellation")
                  .map(ids -> new Cancelled(row.getString("account_id"), status, ids, sessions)));
        })))
        .compose(done -> {
          done.openCheckouts().forEach(payments::expire);
          CatalogChanges.publish(vertx, "reservation cancelled");
          if (done.was() == ReservationStatus.PROVISIONING || done.was() == ReservationStatus.RUNNING) {
            instances.stop(id);
          }
          // announced once the refund has its answer, so live readers see it settled
          return payments.executeRefunds(done.refunds())
              .onComplete(v -> ReservationEvents.publish(vertx, id, done.accountId(), ReservationStatus.CANCELLED.id()));
        })
        .compose(v -> repository.findJson(repository.pool(), id, caller.accountId(), caller.isOperator()))
        .map(found -> found.orElseThrow());
  }

  private static Future<Row> lock(SqlConnection tx, String id, Principal caller) {
    return tx.preparedQuery("SELECT r.status, r.account_id, r.currency, lower(r.period) AS start_at,"
            + " upper(r.period) AS end_at FROM reservations r WHERE r.id = $1 AND ($3 OR r.account_id = $2) FOR UPDATE")
        .execute(Tuple.of(id, caller.accountId(), caller.isOperator()))
        .map(rows -> {
          if (rows.size() == 0) {
            throw new NotFound("No reservation " + id + ".");
          }
          return rows.iterator().next();
        });
  }

  private static String by(Principal caller, String owner) {
    return !caller.accountId().equals(owner) ? "an operator"
        : caller.method() == Principal.Method.TOKEN ? "API client" : "renter";
  }
}
