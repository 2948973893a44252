package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.platform.audit.AuditLog;
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

  Future<JsonObject> cancel(Principal caller, String id) {
    // what was paid matters only to a paid reservation's refund: an unpaid hold skips the query
    return repository.pool().withTransaction(tx -> lock(tx, id, caller).compose(row -> {
          ReservationStatus status = row.status();
          if (!status.paidAndLive() && status != ReservationStatus.PENDING_PAYMENT
              && status != ReservationStatus.AWAITING_APPROVAL) {
            throw new Conflict("This reservation is " + status + "; only pending, confirmed, provisioning or running"
                + " reservations can be cancelled.", new JsonObject().put("reservation_status", status.id()));
          }
          return end(tx, id, row, "cancelled by " + by(caller, row.accountId()))
              .compose(done -> auditForeignCancel(tx, caller, row.accountId(), id, status, done.refund(), row.currency())
                  .map(done));
        }))
        .compose(done -> announce(id, done))
        .compose(v -> repository.findJson(repository.pool(), id, caller.accountId(), caller.isOperator()))
        .map(found -> found.orElseThrow());
  }

  /**
   * The renter's own process ended the instance (its command exited, init was signalled from
   * inside, it ran out of its own memory), or the renter's own image is past the host's pull limit
   * ({@code image_too_large}): not a host failure, so the reservation ends as the
   * renter's cancellation at this moment would, with the same refund and nothing more. False when
   * it is no longer a paid and live reservation (ended meanwhile, or a repeated report).
   */
  Future<Boolean> endedByRenter(String id, String reason) {
    return repository.pool().withTransaction(tx -> ReservationRepository.lock(tx, id).compose(found ->
            found.isEmpty() || !found.get().status().paidAndLive() ? Future.succeededFuture((Cancelled) null)
                : end(tx, id, found.get(), endedBy(reason) + ", as a cancellation")))
        .compose(done -> done == null ? Future.succeededFuture(false) : announce(id, done).map(true));
  }

  /** The event's words for what the renter did: an exit of their own, or their image past the host's pull limit. */
  private static String endedBy(String reason) {
    return "image_too_large".equals(reason) ? "ended: the renter's own image is larger than the host pulls (" + reason + ")"
        : "ended by the instance's own process (" + reason + ")";
  }

  private record Cancelled(String accountId, ReservationStatus was, long refund, List<String> refunds,
      List<String> openCheckouts) {}

  /**
   * Ends the locked reservation as cancelled now: a paid one refunded by the policy it was booked
   * under (less any downtime credit granted with it), written pending in this transaction.
   */
  private Future<Cancelled> end(SqlConnection tx, String id, ReservationRepository.Locked row, String what) {
    ReservationStatus status = row.status();
    boolean paid = status.paidAndLive();
    return (paid ? PaymentViewRepository.amountKept(tx, id) : Future.succeededFuture(0L)).compose(kept -> {
      Instant now = Instant.now();
      RefundPolicy.Refund policy = paid ? repository.policy().bookedWith(row.feeBps()).refundFor(kept, row.start(), row.end(), now)
          : new RefundPolicy.Refund(0, 0, 0);
      return creditInterruption(tx, id, status, now).compose(credit -> {
        // the refund is of the unused hours as paid; the lost time before them is the credit's
        long amount = Math.min(policy.amount(), Math.max(0, kept - credit.amount()));
        String currency = row.currency();
        String cause = what + (paid ? "; refund " + Money.format(amount, currency)
            + (policy.fee() > 0 ? " after a " + Money.format(policy.fee(), currency) + " fee" : "") : "");
        return ReservationRepository.transition(tx, id, status, ReservationStatus.CANCELLED, cause, true)
            .compose(v -> ExtensionRepository.cancelPendingOf(tx, id))
            .compose(v -> Payments.cancelPending(tx, id))
            .compose(sessions -> Payments.refundReservation(tx, id, amount, "cancellation")
                .map(ids -> new Cancelled(row.accountId(), status, amount, concat(credit.refunds(), ids), sessions)));
      });
    });
  }

  /** After commit: open checkouts expired, the catalog, the instance stopped, the refunds, the renter. */
  private Future<Void> announce(String id, Cancelled done) {
    done.openCheckouts().forEach(payments::expire);
    CatalogChanges.publish(vertx, "reservation cancelled");
    if (done.was() == ReservationStatus.PROVISIONING || done.was() == ReservationStatus.RUNNING) {
      instances.stop(id);
    }
    // announced once the refund has its answer, so live readers see it settled
    return payments.executeRefunds(done.refunds())
        .onComplete(v -> ReservationEvents.publish(vertx, id, done.accountId(), ReservationStatus.CANCELLED.id()))
        .mapEmpty();
  }

  /** A downtime credit granted on cancelling: its amount and the refunds that move it. */
  private record Credit(long amount, List<String> refunds) {}

  /**
   * Cancelled while interrupted (host offline, GPU faulty, within the grace): the lost time up to
   * now is credited as a resumption would have (started hours, no fee) and the interruption closed.
   */
  private static Future<Credit> creditInterruption(SqlConnection tx, String id, ReservationStatus status, Instant now) {
    if (status != ReservationStatus.RUNNING) {
      return Future.succeededFuture(new Credit(0, List.of()));
    }
    return CreditRepository.lock(tx, id).compose(found -> {
      CreditRepository.Basis basis = found.orElse(null);
      if (basis == null || basis.interruptedSince() == null) {
        return Future.succeededFuture(new Credit(0, List.of()));
      }
      Instant since = basis.interruptedSince();
      int hours = Credits.startedHours(since, now);
      String reason = basis.interruptedReason() + " from " + since + " until cancelled at " + now;
      return Credits.grant(tx, id, basis, Credits.DOWNTIME, reason, since, now, hours)
          .compose(refunds -> CreditRepository.clearInterruption(tx, id)
              .map(v -> new Credit(refunds.isEmpty() ? 0 : Credits.amountFor(basis, hours), refunds)));
    });
  }

  private static List<String> concat(List<String> first, List<String> second) {
    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  private static Future<ReservationRepository.Locked> lock(SqlConnection tx, String id, Principal caller) {
    return ReservationRepository.lockVisible(tx, id, caller.accountId(), caller.isOperator())
        .map(found -> found.orElseThrow(() -> new NotFound("No reservation " + id + ".")));
  }

  /** An operator cancelling another account's reservation is audited, in the cancel's transaction. */
  private static Future<Void> auditForeignCancel(SqlConnection tx, Principal caller, String owner, String id,
      ReservationStatus was, long refund, String currency) {
    if (caller.accountId().equals(owner)) {
      return Future.succeededFuture();
    }
    return AuditLog.append(tx, caller.accountId(), "reservation.cancel", id,
        new JsonObject().put("status", was.id()).put("account_id", owner),
        new JsonObject().put("status", ReservationStatus.CANCELLED.id()).put("refund", refund).put("currency", currency));
  }

  private static String by(Principal caller, String owner) {
    return !caller.accountId().equals(owner) ? "an operator"
        : caller.method() == Principal.Method.TOKEN ? "API client" : "renter";
  }
}
