package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Forbidden;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.pricing.Quote;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlConnection;

/**
 * A reservation an API token made above its approval threshold waits in {@code awaiting_approval},
 * holding its GPUs and its pending payment until the hold lapses. The account's owner, signed in
 * (never a token: an agent cannot approve its own spending), approves it — it goes on to payment,
 * a saved card is charged at once — or declines it: released, nothing charged. Both are audited.
 */
final class Approvals {
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final SavedCardStep savedCard;
  private final Cancellations cancellations;

  Approvals(Vertx vertx, ReservationRepository repository, SavedCardStep savedCard, Cancellations cancellations) {
    this.vertx = vertx;
    this.repository = repository;
    this.savedCard = savedCard;
    this.cancellations = cancellations;
  }

  /** In the creating transaction: the new hold waits for the owner instead of being paid. */
  static Future<Void> await(SqlConnection tx, String id, Quote quote) {
    return ReservationRepository.transition(tx, id, ReservationStatus.PENDING_PAYMENT,
        ReservationStatus.AWAITING_APPROVAL, "the token's approval threshold is below " + quote.total().amount()
            + " " + quote.total().currency() + ": waits for the owner", false).mapEmpty();
  }

  /** Whether a fresh creation answered a reservation that waits for approval (nothing to charge yet). */
  static boolean awaiting(IdempotencyKeys.Outcome outcome) {
    return outcome.status() == 201
        && ReservationStatus.AWAITING_APPROVAL.id().equals(new JsonObject(outcome.body()).getString("status"));
  }

  /** Approves: pending payment again; a saved card is charged now. The reservation as it is then. */
  Future<JsonObject> approve(Principal caller, String id, JsonObject how) {
    requireOwner(caller);
    return repository.pool().withTransaction(tx -> waiting(tx, caller, id)
            .compose(row -> ReservationRepository.transition(tx, id, ReservationStatus.AWAITING_APPROVAL,
                ReservationStatus.PENDING_PAYMENT, "approved by the owner", false))
            .compose(v -> AuditLog.append(tx, caller.accountId(), "reservation.approved", id, null, how))
            .compose(v -> PaymentViewRepository.pendingOf(tx, id)))
        .compose(pending -> {
          ReservationEvents.publish(vertx, id, caller.accountId(), ReservationStatus.PENDING_PAYMENT.id());
          if (pending.isPresent() && "saved_card".equals(pending.get().method())) {
            return savedCard.finish(recorder -> { }, pending.get().paymentId(), caller.accountId(), null)
                .map(outcome -> new JsonObject(outcome.body()));
          }
          return current(caller, id);
        });
  }

  /** Declines: released at once, its pending payment cancelled; nothing is charged. */
  Future<JsonObject> decline(Principal caller, String id, JsonObject how) {
    requireOwner(caller);
    return repository.pool().withTransaction(tx -> waiting(tx, caller, id)
            .compose(row -> AuditLog.append(tx, caller.accountId(), "reservation.declined", id, null, how)))
        .compose(v -> cancellations.cancel(caller, id))
        .onSuccess(v -> CatalogChanges.publish(vertx, "reservation declined"));
  }

  private static void requireOwner(Principal caller) {
    if (caller.method() != Principal.Method.SESSION) {
      throw new Forbidden("Only the account's owner, signed in, approves or declines; a token never does.");
    }
  }

  private static Future<ReservationRepository.Locked> waiting(SqlConnection tx, Principal caller, String id) {
    return ReservationRepository.lockVisible(tx, id, caller.accountId(), false).map(found -> {
      ReservationRepository.Locked row = found.orElseThrow(() -> new NotFound("No reservation " + id + "."));
      if (row.status() != ReservationStatus.AWAITING_APPROVAL) {
        throw new Conflict("This reservation is " + row.status() + ", not awaiting approval.",
            new JsonObject().put("reservation_status", row.status().id()));
      }
      return row;
    });
  }

  private Future<JsonObject> current(Principal caller, String id) {
    return repository.findJson(repository.pool(), id, caller.accountId(), false).map(found -> found.orElseThrow());
  }
}
