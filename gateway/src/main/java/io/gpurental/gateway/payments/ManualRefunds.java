package io.gpurental.gateway.payments;

import io.gpurental.gateway.payments.Payments.ManualRefund;
import io.gpurental.gateway.payments.RefundRepository.NewRefund;
import io.gpurental.gateway.payments.RefundRepository.RefundablePayment;
import io.gpurental.gateway.payments.RefundRequestRepository.StoredRequest;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.Unprocessable;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An operator's refund or credit of part of what a reservation paid, with a reason the renter
 * sees. One transaction locks the reservation's payments, refuses more than they still hold (409),
 * writes the request (keyed by the operator's Idempotency-Key: a retry gets the same request),
 * its pending refunds and the audit entry; then Stripe is asked as for any refund, and the ledger
 * records each as it succeeds (the reconciler finishes any that Stripe did not answer).
 */
final class ManualRefunds {
  private final Pool pool;
  private final Refunds refunds;

  ManualRefunds(Pool pool, Refunds refunds) {
    this.pool = pool;
    this.refunds = refunds;
  }

  Future<Payments.RefundRequest> request(ManualRefund request) {
    return RefundRequestRepository.byKey(pool, request.actorId(), request.idempotencyKey())
        .compose(stored -> stored.isPresent() ? Future.succeededFuture(replay(stored.get(), request))
            : decide(request).compose(id -> refundsOf(id).compose(refunds::executeAll).map(id)))
        .compose(id -> RefundRequestRepository.byId(pool, id))
        .map(ManualRefunds::toRequest);
  }

  private static String replay(StoredRequest stored, ManualRefund request) {
    boolean same = stored.reservationId().equals(request.reservationId()) && stored.kind().equals(request.kind())
        && stored.amount() == request.amount() && stored.currency().equals(request.currency())
        && stored.note().equals(request.note());
    if (!same) {
      throw new Unprocessable("idempotency-key-reused", "Idempotency key reused",
          "This Idempotency-Key was used with a different request; use a new key.");
    }
    return stored.id();
  }

  /** Writes the request and its pending refunds; the request's id (an earlier one's on a concurrent retry). */
  private Future<String> decide(ManualRefund request) {
    String id = Ids.newId("rrq");
    return pool.withTransaction(tx -> RefundRepository.refundablePayments(tx, request.reservationId())
        .compose(payments -> {
          List<NewRefund> split = split(payments, request);
          return RefundRequestRepository.insert(tx, id, request).compose(inserted -> !inserted
              ? RefundRequestRepository.byKey(tx, request.actorId(), request.idempotencyKey())
                  .map(stored -> replay(stored.orElseThrow(), request))
              : RefundRequestRepository.insertRefunds(tx, id, request.kind(), request.note(), split)
                  .compose(v -> audit(tx, id, request, split)).map(id));
        }));
  }

  /** The refunds that take {@code amount} from the payments, newest first; 409 when they hold less. */
  private static List<NewRefund> split(List<RefundablePayment> payments, ManualRefund request) {
    long refundable = payments.stream().mapToLong(RefundablePayment::refundable).sum();
    Optional<RefundablePayment> otherCurrency = payments.stream()
        .filter(p -> !p.currency().trim().equalsIgnoreCase(request.currency())).findFirst();
    if (otherCurrency.isPresent()) {
      throw new Invalid("This reservation was paid in " + otherCurrency.get().currency().trim() + ".",
          List.of(new Invalid.FieldError("#/currency", "not the currency it was paid in")));
    }
    if (request.amount() > refundable) {
      throw new Conflict((payments.isEmpty() ? "Nothing was paid for this reservation"
          : "At most " + Money.format(refundable, request.currency()) + " of what was paid is not yet refunded")
          + "; " + Money.format(request.amount(), request.currency()) + " cannot be given back.",
          new JsonObject().put("refundable", new Money(refundable, request.currency()).toJson()));
    }
    List<NewRefund> split = new ArrayList<>();
    long left = request.amount();
    for (RefundablePayment payment : payments) {
      long take = Math.min(left, payment.refundable());
      if (take > 0) {
        split.add(new NewRefund(Ids.newId("rfd"), payment.id(), take, payment.currency(), "operator"));
        left -= take;
      }
    }
    return split;
  }

  private static Future<Void> audit(SqlConnection tx, String id, ManualRefund request, List<NewRefund> split) {
    JsonArray ids = new JsonArray();
    split.forEach(refund -> ids.add(refund.id()));
    return AuditLog.append(tx, "account:" + request.actorId(), "payment." + request.kind() + "_requested",
        request.reservationId(), null, new JsonObject().put("request_id", id).put("kind", request.kind())
            .put("amount", new Money(request.amount(), request.currency()).toJson()).put("reason", request.note())
            .put("refunds", ids));
  }

  private Future<List<String>> refundsOf(String requestId) {
    return RefundRequestRepository.byId(pool, requestId).map(stored -> stored.refunds().stream()
        .filter(refund -> "pending".equals(refund.getString("status"))).map(refund -> refund.getString("id")).toList());
  }

  private static Payments.RefundRequest toRequest(StoredRequest stored) {
    return new Payments.RefundRequest(stored.id(), stored.reservationId(), stored.kind(),
        new Money(stored.amount(), stored.currency().trim()), stored.note(), stored.requestedBy(),
        stored.createdAt().toInstant(), stored.refunds().stream().map(Refunds::toApi).toList());
  }
}
