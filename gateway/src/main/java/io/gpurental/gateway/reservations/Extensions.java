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
import io.vertx.sqlclient.SqlConnection;
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
        .compose(row -> quotes.quote(row.offerId(), row.gpuCount(), new Window(row.end().toInstant(), hours), "#/")
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

  private Future<ExtensionRepository.Extendable> current(Principal caller, String id) {
    return ExtensionRepository.extendable(repository.pool(), id, caller.accountId())
        .map(found -> {
          ExtensionRepository.Extendable row = found.orElseThrow(() -> new NotFound("No reservation " + id + "."));
          if (!ReservationStatus.of(row.status()).paidAndLive()) {
            throw new Conflict("Only a confirmed, provisioning or running reservation can be extended; this one is "
                + row.status() + ".", new JsonObject().put("reservation_status", row.status()));
          }
          if (row.ended()) {
            throw new Conflict("This reservation's window ended at " + row.end().toInstant()
                + "; an extension must be asked for before the end. Book a new reservation instead.",
                new JsonObject().put("reservation_status", row.status()));
          }
          if (row.pending()) {
            throw new Conflict("An extension of this reservation is waiting for payment; pay or let it lapse first.");
          }
          return row;
        });
  }

  private Future<Held> hold(Principal caller, ExtensionRepository.Extendable current, Quote quote, Payments.Charge charge, String method,
      StripeGateway.Checkout checkout, String key, String request) {
    String id = charge.reservationId();
    String account = caller.accountId();
    OffsetDateTime end = current.end();
    return repository.pool().withTransaction(tx -> IdempotencyKeys.claim(tx, account, key, request)
        .compose(replay -> replay != null ? Future.succeededFuture(new Held(null, null, replay))
            : Budgets.checkExtension(tx, caller, quote, current.hours(), current.total())
                .compose(v -> insert(tx, current, quote, charge, method, end))
                .compose(v -> Budgets.attribute(tx, caller, id, charge.extensionId()))
                .compose(v -> Payments.recordPending(tx, charge, method, checkout))
                .compose(v -> ReservationRepository.event(tx, id, current.status(),
                    current.status(), "extension by " + quote.hours() + " h held until paid"))
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
          ReservationEvents.publish(vertx, id, account, current.status());
        });
  }

  private Future<Void> insert(SqlConnection tx, ExtensionRepository.Extendable current, Quote quote,
      Payments.Charge charge, String method, OffsetDateTime end) {
    String id = charge.reservationId();
    OffsetDateTime until = end.plusHours(quote.hours());
    return ExtensionRepository.lockReservation(tx, id).compose(locked -> {
      if (!locked.status().equals(current.status()) || !locked.end().isEqual(end)) {
        return Future.failedFuture(new Conflict("The reservation changed meanwhile; read it again."));
      }
      // the quote checked planned maintenance; a window saved since is caught here
      return ReservationService.refuseMaintenance(tx, locked.hostId(), end, until)
          .compose(v -> ExtensionRepository.insert(tx, new ExtensionRepository.NewExtension(charge.extensionId(), id,
              quote.hours(), end, until, OffsetDateTime.now(ZoneOffset.UTC).plus(hold), quote.id(),
              ReservationService.priceOf(quote), quote.total().amount(), quote.total().currency(), method)));
    });
  }
}
