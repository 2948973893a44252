package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.payments.StripeGateway;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.pricing.Quote;
import io.gpurental.gateway.pricing.Quotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Optional;

/** {@code /reservations}: create (from a quote), list, read, cancel. */
final class ReservationsApi {
  private static final int DEFAULT_LIMIT = 20;
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final ReservationService service;
  private final Quotes quotes;
  private final StripeGateway stripe;
  private final String publicBase;

  ReservationsApi(Vertx vertx, ReservationRepository repository, ReservationService service, Quotes quotes,
      StripeGateway stripe, String publicBase) {
    this.vertx = vertx;
    this.stripe = stripe;
    this.publicBase = publicBase;
    this.repository = repository;
    this.service = service;
    this.quotes = quotes;
  }

  void bind(RouterBuilder api) {
    api.getRoute("createReservation").addHandler(this::create);
    api.getRoute("listReservations").addHandler(this::list);
    api.getRoute("getReservation").addHandler(this::get);
    api.getRoute("cancelReservation").addHandler(this::cancel);
  }

  private void create(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    JsonObject body = ctx.body().asJsonObject();
    String key = ctx.request().getHeader("Idempotency-Key");
    if (key == null && caller.method() == Principal.Method.TOKEN) {
      throw new Invalid("API clients must send an Idempotency-Key header with each new reservation, so a retry"
          + " never books twice.");
    }
    if (key != null && (key.isBlank() || key.length() > 255)) {
      throw new Invalid("Idempotency-Key must be 1 to 255 characters.");
    }
    // the request as identified for idempotency: route and body
    String request = "POST /reservations\n" + body.encode();
    service.earlier(caller.accountId(), key, request)
        .compose(replay -> replay != null ? Future.succeededFuture(replay) : fresh(caller, body, key, request))
        .onSuccess(outcome -> {
          ctx.response().setStatusCode(outcome.status()).putHeader("Content-Type", "application/json").end(outcome.body());
          if (!outcome.replayed()) {
            JsonObject created = new JsonObject(outcome.body());
            ReservationEvents.publish(vertx, created.getString("id"), caller.accountId(), created.getString("status"));
          }
        })
        .onFailure(ctx::fail);
  }

  private Future<ReservationService.Outcome> fresh(Principal caller, JsonObject body, String key, String request) {
    String id = Ids.newId("rsv");
    return sshKey(caller, body).compose(ssh -> quotes.find(body.getString("quote_id"))
        .recover(failure -> Future.failedFuture(failure instanceof NotFound
            ? new Invalid(failure.getMessage(), List.of(new Invalid.FieldError("#/quote_id", "unknown quote")))
            : failure))
        .compose(quote -> hostOf(quote).compose(host -> openCheckout(id, caller, quote, body.getString("payment"))
            .compose(checkout -> service.create(id, caller, quote, host, ssh, body.getString("payment"), checkout, key,
                    request)
                .onFailure(failure -> {
                  if (checkout != null) {
                    stripe.expire(checkout.sessionId());
                  }
                })))));
  }

  /**
   * For {@code payment: checkout}, the Stripe Checkout Session is opened before the reservation's
   * transaction (no network call holds database locks); it is expired again if the hold fails.
   */
  private Future<StripeGateway.Checkout> openCheckout(String id, Principal caller, Quote quote, String payment) {
    if (!"checkout".equals(payment)) {
      return Future.succeededFuture(null);
    }
    String description = quote.gpuCount() + " GPU" + (quote.gpuCount() == 1 ? "" : "s") + " × " + quote.hours()
        + " h from " + quote.start() + " (" + quote.offerId() + ")";
    return stripe.checkout(id, caller.accountId(), quote.total().amount(), quote.total().currency(), description,
        publicBase + "/reservations/" + id + "?paid={CHECKOUT_SESSION_ID}", publicBase + "/reservations/" + id);
  }

  /** The key pasted in the request, or one of the caller's saved keys by id. */
  private Future<SshPublicKey> sshKey(Principal caller, JsonObject body) {
    String keyId = body.getString("ssh_key_id");
    String pasted = body.getString("ssh_public_key");
    if ((keyId == null) == (pasted == null)) {
      return Future.failedFuture(new Invalid("Send either ssh_public_key or ssh_key_id.",
          List.of(new Invalid.FieldError("#/ssh_public_key", "give exactly one of ssh_public_key, ssh_key_id"))));
    }
    if (pasted != null) {
      return Future.succeededFuture(SshPublicKey.parse(pasted, "#/ssh_public_key"));
    }
    return repository.pool().preparedQuery("SELECT public_key FROM ssh_keys WHERE id = $1 AND account_id = $2")
        .execute(Tuple.of(keyId, caller.accountId())).map(rows -> {
          if (rows.size() == 0) {
            throw new Invalid("You have no SSH key " + keyId + ".",
                List.of(new Invalid.FieldError("#/ssh_key_id", "unknown key")));
          }
          return SshPublicKey.parse(rows.iterator().next().getString(0), "#/ssh_key_id");
        });
  }

  private Future<String> hostOf(Quote quote) {
    return repository.pool().preparedQuery("SELECT host_id FROM offers WHERE id = $1").execute(Tuple.of(quote.offerId()))
        .map(rows -> rows.iterator().next().getString(0));
  }

  private void list(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    int limit = Optional.ofNullable(ctx.request().getParam("limit")).map(Integer::parseInt).orElse(DEFAULT_LIMIT);
    Optional<Page.Position> after = Optional.ofNullable(ctx.request().getParam("cursor")).map(Page::decode);
    repository.list(caller.accountId(), caller.isOperator(), ctx.request().getParam("status"), after, limit)
        .onSuccess(rows -> ctx.json(Page.of(rows, limit, ReservationJson::of,
            row -> Page.encode(row.getOffsetDateTime("created_at"), row.getString("id")))))
        .onFailure(ctx::fail);
  }

  private void get(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    String id = ctx.pathParam("reservation_id");
    repository.find(repository.pool(), id, caller.accountId(), caller.isOperator())
        .onSuccess(found -> {
          if (found.isEmpty()) {
            ctx.fail(new NotFound("No reservation " + id + "."));
          } else {
            ctx.json(found.get());
          }
        })
        .onFailure(ctx::fail);
  }

  /** Cancelling an unpaid hold releases its GPUs at once. */
  private void cancel(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    String id = ctx.pathParam("reservation_id");
    repository.pool().withTransaction(tx -> repository.find(tx, id, caller.accountId(), caller.isOperator())
            .compose(found -> {
              JsonObject reservation = found.orElseThrow(() -> new NotFound("No reservation " + id + "."));
              String status = reservation.getString("status");
              if (!"pending_payment".equals(status)) {
                throw new Conflict("A " + status + " reservation cannot be cancelled here"
                    + ("confirmed".equals(status) || "provisioning".equals(status) || "running".equals(status)
                        ? " yet: cancelling paid reservations (with their refunds) comes with payments." : ".")
                    , new JsonObject().put("status", status));
              }
              boolean byOwner = caller.accountId().equals(reservation.getString("account_id"));
              return ReservationRepository.transition(tx, id, "pending_payment", "cancelled", "cancelled by "
                  + (!byOwner ? "an operator" : caller.method() == Principal.Method.TOKEN ? "API client" : "renter"),
                  true)
                  .compose(changed -> {
                    if (!changed) {
                      return Future.failedFuture(new Conflict("The reservation changed meanwhile; read it again."));
                    }
                    return repository.find(tx, id, caller.accountId(), caller.isOperator()).map(Optional::orElseThrow);
                  });
            }))
        .onSuccess(updated -> {
          CatalogChanges.publish(vertx, "reservation cancelled");
          ReservationEvents.publish(vertx, id, updated.getString("account_id"), "cancelled");
          ctx.json(updated);
        })
        .onFailure(ctx::fail);
  }
}
