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
import io.vertx.sqlclient.SqlConnection;
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
        PaymentViewRepository.amountKept(tx, id).compose(kept -> {
          ReservationStatus status = row.status();
          boolean paid = status.paidAndLive();
          if (!paid && status != ReservationStatus.PENDING_PAYMENT) {
            throw new Conflict("This reservation is " + status + "; only pending, confirmed, provisioning or running"
                + " reservations can be cancelled.", new JsonObject().put("status", status.id()));
          }
          RefundPolicy.Refund refund = paid ? repository.policy().bookedWith(row.feeBps()).refundFor(kept, row.start(), row.end(), Instant.now())
              : new RefundPolicy.Refund(0, 0, 0);
          String currency = row.currency();
          String cause = "cancelled by " + by(caller, row.accountId())
              + (paid ? "; refund " + Money.format(refund.amount(), currency)
                  + (refund.fee() > 0 ? " after a " + Money.format(refund.fee(), currency) + " fee" : "") : "");
          return ReservationRepository.transition(tx, id, status, ReservationStatus.CANCELLED, cause, true)
              .compose(v -> ExtensionRepository.cancelPendingOf(tx, id))
              .compose(v -> Payments.cancelPending(tx, id))
              .compose(sessions -> Payments.refundReservation(tx, id, refund.amount(), "cancellation")
                  .map(ids -> new Cancelled(row.accountId(), status, ids, sessions)));
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

  private static Future<ReservationRepository.Locked> lock(SqlConnection tx, String id, Principal caller) {
    return ReservationRepository.lockVisible(tx, id, caller.accountId(), caller.isOperator())
        .map(found -> found.orElseThrow(() -> new NotFound("No reservation " + id + ".")));
  }

  private static String by(Principal caller, String owner) {
    return !caller.accountId().equals(owner) ? "an operator"
        : caller.method() == Principal.Method.TOKEN ? "API client" : "renter";
  }
}
