package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.payments.StripeGateway;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.pricing.Quote;
import io.gpurental.gateway.pricing.QuotesApi;
import io.gpurental.gateway.pricing.Window;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * More hours on the same GPUs right after a reservation's end: quoted at the offer's current
 * price, held like a new reservation (the exclusion constraint guards the same GPUs), and paid
 * like one. The reservation's end moves when the extension is paid, and only if that happens
 * before the end: an unpaid extension never keeps the window open (see {@link Scheduler}).
 */
final class Extensions {
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final QuotesApi quotes;
  private final Payments payments;
  private final Duration hold;
  private final String publicBase;

  Extensions(Vertx vertx, ReservationRepository repository, QuotesApi quotes, Payments payments, Duration hold,
      String publicBase) {
    this.vertx = vertx;
    this.repository = repository;
    this.quotes = quotes;
    this.payments = payments;
    this.hold = hold;
    this.publicBase = publicBase;
  }

  /**
   * The held extension's payment (to charge when it is a saved card) and the reservation as it is
   * now; or, for a concurrent request with the same Idempotency-Key, what the first one left.
   */
  record Held(String paymentId, JsonObject reservation, IdempotencyKeys.Outcome replay) {}

  Future<Held> extend(Principal caller, String id, int hours, String method, String key, String request) {
    return current(caller, id)
        .compose(row -> "saved_card".equals(method) ? payments.requireSavedCard(caller.accountId()).map(row)
            : Future.succeededFuture(row))
        .compose(row -> quotes.quote(row.getString("offer_id"), row.getInteger("gpu_count"),
                new Window(row.getOffsetDateTime("end_at").toInstant(), hours), "#/")
            .compose(quote -> {
              Payments.requireChargeable(quote.total().amount(), quote.total().currency());
              Payments.Charge charge = new Payments.Charge(Ids.newId("pay"), id, Ids.newId("ext"), caller.accountId(),
                  quote.total().amount(), quote.total().currency(), quote.gpuCount() + " GPU(s) × " + hours
                  + " h more for " + id, ReservationService.priceOf(quote));
              Future<StripeGateway.Checkout> checkout = !"checkout".equals(method) ? Future.succeededFuture(null)
                  : payments.checkout(charge, publicBase + "/reservations/" + id + "?paid={CHECKOUT_SESSION_ID}",
                      publicBase + "/reservations/" + id);
              return checkout.compose(session -> hold(caller, row, quote, charge, method, session, key, request)
                  .onFailure(failure -> {
                    if (session != null) {
                      payments.expire(session.sessionId());
                    }
                  }));
            }));
  }

  private Future<Row> current(Principal caller, String id) {
    return repository.pool().preparedQuery("SELECT status, offer_id, gpu_count, upper(period) AS end_at,"
            + " upper(period) <= now() AS ended, EXISTS (SELECT 1 FROM reservation_extensions x WHERE x.reservation_id = r.id"
            + " AND x.status = 'pending_payment') AS pending FROM reservations r WHERE id = $1 AND account_id = $2")
        .execute(Tuple.of(id, caller.accountId()))
        .map(rows -> {
          if (rows.size() == 0) {
            throw new NotFound("No reservation " + id + ".");
          }
          Row row = rows.iterator().next();
          if (!ReservationStatus.of(row.getString("status")).paidAndLive()) {
            throw new Conflict("Only a confirmed, provisioning or running reservation can be extended; this one is "
                + row.getString("status") + ".", new JsonObject().put("status", row.getString("status")));
          }
          if (row.getBoolean("ended")) {
            throw new Conflict("This reservation's window ended at " + row.getOffsetDateTime("end_at").toInstant()
                + "; an extension must be asked for before the end. Book a new reservation instead.",
                new JsonObject().put("status", row.getString("status")));
          }
          if (row.getBoolean("pending")) {
            throw new Conflict("An extension of this reservation is waiting for payment; pay or let it lapse first.");
          }
          return row;
        });
  }

  private Future<Held> hold(Principal caller, Row current, Quote quote, Payments.Charge charge, String method,
      StripeGateway.Checkout checkout, String key, String request) {
    String id = charge.reservationId();
    String account = caller.accountId();
    OffsetDateTime end = current.getOffsetDateTime("end_at");
    return repository.pool().withTransaction(tx -> IdempotencyKeys.claim(tx, account, key, request)
        .compose(replay -> replay != null ? Future.succeededFuture(new Held(null, null, replay))
            : insert(tx, current, quote, charge, method, end)
                .compose(v -> Payments.recordPending(tx, charge, method, checkout))
                .compose(v -> ReservationRepository.event(tx, id, current.getString("status"),
                    current.getString("status"), "extension by " + quote.hours() + " h held until paid"))
                .compose(v -> repository.findJson(tx, id, account, false).map(found -> found.orElseThrow()))
                .compose(json -> ("saved_card".equals(method)
                    ? IdempotencyKeys.rememberPayment(tx, account, key, charge.paymentId())
                    : IdempotencyKeys.store(tx, account, key, 201, json.encode())).map(new Held(charge.paymentId(), json, null)))))
        .recover(failure -> ReservationService.isRetryable(failure)
            ? Future.failedFuture(new Conflict("The GPUs of this reservation are taken after its end ("
                + end.toInstant() + "); extend by fewer hours or book anew.")) : Future.failedFuture(failure))
        .onSuccess(held -> {
          if (held.replay() != null) {
            return;
          }
          CatalogChanges.publish(vertx, "reservation extension held");
          ReservationEvents.publish(vertx, id, account, current.getString("status"));
        });
  }

  private Future<Void> insert(SqlConnection tx, Row current, Quote quote, Payments.Charge charge, String method,
      OffsetDateTime end) {
    String id = charge.reservationId();
    OffsetDateTime until = end.plusHours(quote.hours());
    return tx.preparedQuery("SELECT status, upper(period) AS end_at FROM reservations WHERE id = $1 FOR UPDATE")
        .execute(Tuple.of(id)).compose(rows -> {
          Row locked = rows.iterator().next();
          if (!locked.getString("status").equals(current.getString("status"))
              || !locked.getOffsetDateTime("end_at").isEqual(end)) {
            return Future.failedFuture(new Conflict("The reservation changed meanwhile; read it again."));
          }
          return tx.preparedQuery("INSERT INTO reservation_extensions (id, reservation_id, hours, period, status,"
                  + " hold_expires_at, quote_id, price, total_amount, currency, payment_method)"
                  + " VALUES ($1, $2, $3, tstzrange($4, $5), 'pending_payment', $6, $7, $8, $9, $10, $11)")
              .execute(Tuple.from(new Object[] {charge.extensionId(), id, quote.hours(), end, until,
                  OffsetDateTime.now(ZoneOffset.UTC).plus(hold), quote.id(), ReservationService.priceOf(quote),
                  quote.total().amount(), quote.total().currency(), method}))
              .compose(v -> tx.preparedQuery("INSERT INTO reservation_gpus (reservation_id, gpu_id, period, extension_id)"
                  + " SELECT DISTINCT $1, gpu_id, tstzrange($2, $3), $4 FROM reservation_gpus"
                  + " WHERE reservation_id = $1 AND active").execute(Tuple.of(id, end, until, charge.extensionId())))
              .mapEmpty();
        });
  }
}
