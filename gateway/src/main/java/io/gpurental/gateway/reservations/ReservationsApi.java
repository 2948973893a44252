package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.payments.StripeGateway;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.QueryNumbers;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.platform.errors.Problem;
import io.gpurental.gateway.pricing.Quote;
import io.gpurental.gateway.pricing.Quotes;
import io.gpurental.gateway.pricing.QuotesApi;
import io.gpurental.gateway.pricing.Window;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.List;
import java.util.Optional;

/** {@code /reservations}: create (from a quote, or quoted on the spot), list, read, cancel, extend. */
final class ReservationsApi {
  private static final int DEFAULT_LIMIT = 20;
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final ReservationService service;
  private final IdempotencyKeys keys;
  private final SshKeyRepository sshKeys;
  private final Quotes quotes;
  private final QuotesApi quoting;
  private final Payments payments;
  private final SavedCardStep savedCard;
  private final Cancellations cancellations;
  private final Extensions extensions;
  private final String publicBase;
  private final int maxHours;

  ReservationsApi(Vertx vertx, ReservationRepository repository, ReservationService service, Quotes quotes,
      QuotesApi quoting, Payments payments, Cancellations cancellations, Extensions extensions, String publicBase,
      int maxHours) {
    this.vertx = vertx;
    this.repository = repository;
    this.service = service;
    this.keys = new IdempotencyKeys(repository.pool());
    this.sshKeys = new SshKeyRepository(repository.pool());
    this.quotes = quotes;
    this.quoting = quoting;
    this.payments = payments;
    this.savedCard = new SavedCardStep(vertx, repository, payments, publicBase);
    this.cancellations = cancellations;
    this.extensions = extensions;
    this.publicBase = publicBase;
    this.maxHours = maxHours;
  }

  void bind(RouterBuilder api) {
    api.getRoute("createReservation").addHandler(this::create);
    api.getRoute("listReservations").addHandler(this::list);
    api.getRoute("getReservation").addHandler(this::get);
    api.getRoute("cancelReservation").addHandler(ctx -> cancellations.cancel(Principal.required(ctx),
        ctx.pathParam("reservation_id")).onSuccess(ctx::json).onFailure(ctx::fail));
    api.getRoute("extendReservation").addHandler(this::extend);
  }

  private void create(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    JsonObject body = ctx.body().asJsonObject();
    String key = idempotencyKey(ctx, caller);
    // the request as identified for idempotency: route and body
    String request = "POST /reservations\n" + body.encode();
    keys.earlier(caller.accountId(), key, request)
        .compose(earlier -> earlier == null ? fresh(ctx, caller, body, key, request)
            : resume(ctx, earlier, caller, key))
        .onSuccess(outcome -> respond(ctx, caller, outcome))
        .onFailure(ctx::fail);
  }

  private Future<IdempotencyKeys.Outcome> fresh(RoutingContext ctx, Principal caller, JsonObject body, String key,
      String request) {
    String id = Ids.newId("rsv");
    String method = body.getString("payment");
    return sshKey(caller, body)
        .compose(ssh -> ("saved_card".equals(method) ? payments.requireSavedCard(caller.accountId())
            : Future.<Void>succeededFuture()).map(ssh))
        .compose(ssh -> quoteOf(body).compose(quote -> hostOf(quote).compose(host -> {
          Payments.requireChargeable(quote.total().amount(), quote.total().currency());
          Payments.Charge charge = new Payments.Charge(Ids.newId("pay"), id, null, caller.accountId(),
              quote.total().amount(), quote.total().currency(), describe(quote), ReservationService.priceOf(quote));
          return openCheckout(charge, method).compose(checkout -> service.create(new ReservationService.Request(id,
                  caller, quote, host, ssh, method, charge, checkout, key, request))
              .onFailure(failure -> {
                if (checkout != null) {
                  payments.expire(checkout.sessionId());
                }
              })
              .compose(outcome -> outcome.resumePaymentId() != null
                  ? savedCard.finish(ctx, outcome.resumePaymentId(), caller.accountId(), key)
                  : "saved_card".equals(method) && !outcome.replayed()
                      ? savedCard.finish(ctx, charge.paymentId(), caller.accountId(), key)
                      : Future.succeededFuture(outcome)));
        })));
  }

  /** The quote named, or one made now from {@code offer_id}, {@code gpu_count}, {@code start}, {@code hours}. */
  private Future<Quote> quoteOf(JsonObject body) {
    String quoteId = body.getString("quote_id");
    boolean inline = body.containsKey("offer_id") || body.containsKey("gpu_count") || body.containsKey("hours")
        || body.containsKey("start");
    if ((quoteId == null) == !inline) {
      return Future.failedFuture(new Invalid("Send either quote_id, or offer_id, gpu_count and hours (and start).",
          List.of(new Invalid.FieldError("#/quote_id", "give quote_id or offer_id/gpu_count/hours, not both"))));
    }
    String image = body.getString("image");
    List<Integer> ports = QuotesApi.ports(body.getJsonArray("ports"));
    if (quoteId != null) {
      Future<Quote> quote = quotes.find(quoteId).recover(failure -> Future.failedFuture(failure instanceof NotFound
          ? new Invalid(failure.getMessage(), List.of(new Invalid.FieldError("#/quote_id", "unknown quote")))
          : failure));
      // the quote's image, unless the reservation picks one (the price does not depend on it)
      return image == null && ports == null ? quote
          : quote.compose(q -> quoting.image(image, ports, "#/").map(chosen -> q.withImage(chosen.orElse(null))));
    }
    if (body.getString("offer_id") == null || body.getInteger("gpu_count") == null || body.getInteger("hours") == null) {
      return Future.failedFuture(new Invalid("offer_id, gpu_count and hours are all needed without a quote_id.",
          List.of(new Invalid.FieldError("#/offer_id", "offer_id, gpu_count and hours are required together"))));
    }
    Window window = Window.parse(body.getString("start"), body.getInteger("hours"), maxHours, "#/");
    return quoting.quote(body.getString("offer_id"), body.getInteger("gpu_count"), window, image, ports, "#/");
  }

  private static String describe(Quote quote) {
    return quote.gpuCount() + " GPU" + (quote.gpuCount() == 1 ? "" : "s") + " × " + quote.hours() + " h from "
        + quote.start() + " (" + quote.offerId() + ")";
  }

  /**
   * For {@code payment: checkout}, the Stripe Checkout Session is opened before the reservation's
   * transaction (no network call holds database locks); it is expired again if the hold fails.
   */
  private Future<StripeGateway.Checkout> openCheckout(Payments.Charge charge, String method) {
    if (!"checkout".equals(method)) {
      return Future.succeededFuture(null);
    }
    String page = publicBase + "/reservations/" + charge.reservationId();
    return payments.checkout(charge, page + "?paid={CHECKOUT_SESSION_ID}", page);
  }

  private void extend(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    JsonObject body = ctx.body().asJsonObject();
    String id = ctx.pathParam("reservation_id");
    String key = idempotencyKey(ctx, caller);
    String request = "POST /reservations/" + id + "/extend\n" + body.encode();
    int hours = body.getInteger("hours");
    if (hours > maxHours) {
      throw new Invalid("hours must be between 1 and " + maxHours, List.of(new Invalid.FieldError("#/hours",
          "at most " + maxHours)));
    }
    keys.earlier(caller.accountId(), key, request)
        .compose(earlier -> earlier == null
            ? extensions.extend(caller, id, hours, body.getString("payment"), key, request).compose(held ->
                held.replay() != null ? resume(ctx, held.replay(), caller, key)
                    : "saved_card".equals(body.getString("payment"))
                        ? savedCard.finish(ctx, held.paymentId(), caller.accountId(), key)
                        : Future.succeededFuture(IdempotencyKeys.Outcome.fresh(201, held.reservation().encode())))
            : resume(ctx, earlier, caller, key))
        .onSuccess(outcome -> respond(ctx, caller, outcome))
        .onFailure(ctx::fail);
  }

  /** A stored answer, or the saved-card charge an earlier request with this key left unfinished. */
  private Future<IdempotencyKeys.Outcome> resume(RoutingContext ctx, IdempotencyKeys.Outcome earlier,
      Principal caller, String key) {
    return earlier.resumePaymentId() != null ? savedCard.finish(ctx, earlier.resumePaymentId(), caller.accountId(), key)
        : Future.succeededFuture(earlier);
  }

  private static String idempotencyKey(RoutingContext ctx, Principal caller) {
    String key = ctx.request().getHeader("Idempotency-Key");
    if (key == null && caller.method() == Principal.Method.TOKEN) {
      throw new Invalid("API clients must send an Idempotency-Key header with each reservation or extension, so a"
          + " retry never books or charges twice.");
    }
    if (key != null && (key.isBlank() || key.length() > 255)) {
      throw new Invalid("Idempotency-Key must be 1 to 255 characters.");
    }
    return key;
  }

  private void respond(RoutingContext ctx, Principal caller, IdempotencyKeys.Outcome outcome) {
    String type = outcome.status() >= 400 ? Problem.MEDIA_TYPE : "application/json";
    ctx.response().setStatusCode(outcome.status()).putHeader("Content-Type", type).end(outcome.body());
    if (!outcome.replayed() && outcome.status() < 400) {
      JsonObject created = new JsonObject(outcome.body());
      ReservationEvents.publish(vertx, created.getString("id"), created.getString("account_id"),
          created.getString("status"));
    }
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
    return sshKeys.publicKey(keyId, caller.accountId()).map(found -> SshPublicKey.parse(found.orElseThrow(() ->
        new Invalid("You have no SSH key " + keyId + ".", List.of(new Invalid.FieldError("#/ssh_key_id", "unknown key")))),
        "#/ssh_key_id"));
  }

  private Future<String> hostOf(Quote quote) {
    return repository.hostOf(quote.offerId());
  }

  private void list(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    int limit = QueryNumbers.limit(ctx, DEFAULT_LIMIT);
    Optional<Page.Position> after = Optional.ofNullable(ctx.request().getParam("cursor")).map(Page::decode);
    repository.list(caller.accountId(), caller.isOperator(), ctx.request().getParam("status"), after, limit)
        .onSuccess(rows -> ctx.json(Page.of(rows, limit, repository::json,
            reservation -> Page.encode(reservation.createdAt().atOffset(java.time.ZoneOffset.UTC), reservation.id()))))
        .onFailure(ctx::fail);
  }

  private void get(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    String id = ctx.pathParam("reservation_id");
    repository.findJson(repository.pool(), id, caller.accountId(), caller.isOperator())
        .onSuccess(found -> {
          if (found.isEmpty()) {
            ctx.fail(new NotFound("No reservation " + id + "."));
          } else {
            ctx.json(found.get());
          }
        })
        .onFailure(ctx::fail);
  }
}
