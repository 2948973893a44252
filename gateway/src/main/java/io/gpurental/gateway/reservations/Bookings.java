package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.payments.StripeGateway;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.platform.http.ProblemRecorder;
import io.gpurental.gateway.pricing.Quote;
import io.gpurental.gateway.pricing.Quotes;
import io.gpurental.gateway.pricing.QuotesApi;
import io.gpurental.gateway.pricing.Window;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A renter's reservations as the REST API offers them (create, extend, cancel, read, list), for
 * every edge that books: {@code ReservationsApi} and the MCP tools ({@code agents}). Requests
 * come in the shape of the API's request bodies, answers in the API's JSON, so both edges book,
 * charge and replay Idempotency-Keys identically.
 */
public final class Bookings {
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
  private final Approvals approvals;
  private final String publicBase;
  private final int maxHours;
  private volatile ApprovalRequests approvalRequests = reservation -> { };

  /** An answer: its HTTP status and body (a reservation, or the problem a replayed key stored). */
  public record Answer(int status, String body) {
    public boolean failed() {
      return status >= 400;
    }
  }

  Bookings(Vertx vertx, ReservationRepository repository, ReservationService service, Quotes quotes,
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
    this.approvals = new Approvals(vertx, repository, savedCard, cancellations);
    this.publicBase = publicBase;
    this.maxHours = maxHours;
  }

  /**
   * Books from a {@code POST /reservations} body under the Idempotency-Key {@code key} (null only
   * for signed-in people). {@code onProblem} receives the recorder that keeps a failed answer
   * under the key, for the edge's error path to call with what it renders.
   */
  public Future<Answer> create(Principal caller, JsonObject body, String key, Consumer<ProblemRecorder> onProblem) {
    // the request as identified for idempotency: route and body
    String request = "POST /reservations\n" + body.encode();
    return Future.succeededFuture().compose(v -> keys.earlier(caller.accountId(), key, request))
        .compose(earlier -> earlier == null ? fresh(caller, body, key, request, onProblem)
            : resume(earlier, caller, key, onProblem))
        .map(this::published);
  }

  /** Extends by {@code hours} ({@code POST /reservations/{id}/extend}), paid by {@code payment}. */
  public Future<Answer> extend(Principal caller, String id, int hours, String payment, String key,
      Consumer<ProblemRecorder> onProblem) {
    if (hours < 1 || hours > maxHours) {
      return Future.failedFuture(new Invalid("hours must be between 1 and " + maxHours,
          List.of(new Invalid.FieldError("#/hours", "at most " + maxHours))));
    }
    JsonObject body = new JsonObject().put("hours", hours).put("payment", payment);
    String request = "POST /reservations/" + id + "/extend\n" + body.encode();
    return keys.earlier(caller.accountId(), key, request)
        .compose(earlier -> earlier == null
            ? extensions.extend(caller, id, hours, payment, key, request).compose(held ->
                held.replay() != null ? resume(held.replay(), caller, key, onProblem)
                    : "saved_card".equals(payment)
                        ? savedCard.finish(onProblem, held.paymentId(), caller.accountId(), key)
                        : Future.succeededFuture(IdempotencyKeys.Outcome.fresh(201, held.reservation().encode())))
            : resume(earlier, caller, key, onProblem))
        .map(this::published);
  }

  /** Whether the caller has a saved card to charge at once (else a booking needs a browser checkout). */
  public Future<Boolean> hasSavedCard(Principal caller) {
    return payments.requireSavedCard(caller.accountId()).map(true)
        .recover(failure -> failure instanceof Invalid ? Future.succeededFuture(false) : Future.failedFuture(failure));
  }

  /** Cancels, refunding what the policy gives back; the reservation as it is now. */
  public Future<JsonObject> cancel(Principal caller, String id) {
    return cancellations.cancel(caller, id);
  }

  /** The owner approves a reservation awaiting approval: it goes on to payment (a saved card: now). */
  public Future<JsonObject> approve(Principal caller, String id) {
    return approvals.approve(caller, id, null);
  }

  /** As {@link #approve}, with how it was approved for the audit log (e.g. through an e-mailed link). */
  public Future<JsonObject> approve(Principal caller, String id, JsonObject how) {
    return approvals.approve(caller, id, how);
  }

  /** As {@link #decline}, with how it was declined for the audit log. */
  public Future<JsonObject> decline(Principal caller, String id, JsonObject how) {
    return approvals.decline(caller, id, how);
  }

  /** Registers who is told of reservations that wait for approval (after their commit). */
  public void onApprovalRequested(ApprovalRequests listener) {
    this.approvalRequests = listener;
  }

  /** The owner declines a reservation awaiting approval: released, nothing charged. */
  public Future<JsonObject> decline(Principal caller, String id) {
    return approvals.decline(caller, id, null);
  }

  /** The caller's reservation (an operator's: any), with SSH access once running. */
  public Future<JsonObject> get(Principal caller, String id) {
    return repository.findJson(repository.pool(), id, caller.accountId(), caller.isOperator())
        .map(found -> found.orElseThrow(() -> new NotFound("No reservation " + id + ".")));
  }

  /** A page of the caller's reservations, newest first ({@code data}, {@code next_cursor}). */
  public Future<JsonObject> list(Principal caller, String status, String cursor, int limit) {
    return Future.succeededFuture(Optional.ofNullable(cursor).map(Page::decode))
        .compose(after -> repository.list(caller.accountId(), caller.isOperator(), status, after, limit))
        .map(rows -> Page.of(rows, limit, repository::json,
            reservation -> Page.encode(reservation.createdAt().atOffset(ZoneOffset.UTC), reservation.id())));
  }

  private Answer published(IdempotencyKeys.Outcome outcome) {
    if (!outcome.replayed() && outcome.status() < 400) {
      JsonObject created = new JsonObject(outcome.body());
      ReservationEvents.publish(vertx, created.getString("id"), created.getString("account_id"),
          created.getString("status"));
      if (outcome.status() == 201 && ReservationStatus.AWAITING_APPROVAL.id().equals(created.getString("status"))) {
        approvalRequests.requested(created);
      }
    }
    return new Answer(outcome.status(), outcome.body());
  }

  private Future<IdempotencyKeys.Outcome> fresh(Principal caller, JsonObject body, String key, String request,
      Consumer<ProblemRecorder> onProblem) {
    String id = Ids.newId("rsv");
    String method = body.getString("payment");
    return sshKey(caller, body)
        .compose(ssh -> ("saved_card".equals(method) ? payments.requireSavedCard(caller.accountId())
            : Future.<Void>succeededFuture()).map(ssh))
        .compose(ssh -> quoteOf(body).compose(quote -> repository.hostOf(quote.offerId()).compose(host -> {
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
                  ? savedCard.finish(onProblem, outcome.resumePaymentId(), caller.accountId(), key)
                  : "saved_card".equals(method) && !outcome.replayed() && !Approvals.awaiting(outcome)
                      ? savedCard.finish(onProblem, charge.paymentId(), caller.accountId(), key)
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
          : quote.compose(q -> quoting.image(q, image, ports, "#/").map(chosen -> q.withImage(chosen.orElse(null))));
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

  /** A stored answer, or the saved-card charge an earlier request with this key left unfinished. */
  private Future<IdempotencyKeys.Outcome> resume(IdempotencyKeys.Outcome earlier, Principal caller, String key,
      Consumer<ProblemRecorder> onProblem) {
    return earlier.resumePaymentId() != null
        ? savedCard.finish(onProblem, earlier.resumePaymentId(), caller.accountId(), key)
        : Future.succeededFuture(earlier);
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
}
