package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.payments.StripeGateway;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Gone;
import io.gpurental.gateway.pricing.Quote;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Set;

/**
 * Creates reservations: in one transaction it records the idempotency key, picks free GPUs on the
 * host, writes the reservation, one {@code reservation_gpus} row per GPU (the exclusion constraint
 * is the final guard against double booking), its pending payment and the first event. Conflicts
 * between concurrent creations are retried a few times before answering 409.
 */
final class ReservationService {
  private static final int ATTEMPTS = 5;
  /** exclusion_violation, serialization_failure, deadlock_detected */
  private static final Set<String> RETRYABLE = Set.of("23P01", "40001", "40P01");
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final Duration hold;

  ReservationService(Vertx vertx, ReservationRepository repository, Duration hold) {
    this.vertx = vertx;
    this.repository = repository;
    this.hold = hold;
  }

  /** Everything one creation needs. */
  record Request(String id, Principal caller, Quote quote, String hostId, SshPublicKey ssh, String paymentMethod,
      Payments.Charge charge, StripeGateway.Checkout checkout, String key, String requestBody) {}

  Future<IdempotencyKeys.Outcome> create(Request request) {
    if (request.quote().start().isBefore(Instant.now().minus(Duration.ofMinutes(5)))) {
      return Future.failedFuture(new Gone("The quote's window started at " + request.quote().start()
          + "; ask for a new quote starting now or later."));
    }
    return attempt(request, 1);
  }

  private Future<IdempotencyKeys.Outcome> attempt(Request r, int attempt) {
    Quote quote = r.quote();
    OffsetDateTime start = quote.start().atOffset(ZoneOffset.UTC);
    OffsetDateTime end = quote.end().atOffset(ZoneOffset.UTC);
    String account = r.caller().accountId();
    return repository.pool().withTransaction(tx -> IdempotencyKeys.claim(tx, account, r.key(), r.requestBody())
        .compose(replay -> replay != null ? Future.succeededFuture(replay)
            : Budgets.check(tx, r.caller(), quote).compose(approval -> refuseMaintenance(tx, r.hostId(), start, end)
                .compose(v -> ReservationGpuRepository.freeGpus(tx, r.hostId(), start, end, quote.gpuCount()))
                .compose(gpus -> {
                  if (gpus.size() < quote.gpuCount()) {
                    return Future.failedFuture(new NotEnoughGpus(gpus.size()));
                  }
                  OffsetDateTime holdUntil = OffsetDateTime.now(ZoneOffset.UTC).plus(hold);
                  NewReservation reservation = new NewReservation(r.id(), account, quote.offerId(), r.hostId(),
                      quote.gpuCount(), start, end, holdUntil, quote.id(), priceOf(quote), quote.total().amount(),
                      quote.total().currency(), r.ssh(), r.paymentMethod(), gpus, quote.image());
                  return ReservationRepository.insert(tx, reservation)
                      .compose(v -> Budgets.attribute(tx, r.caller(), r.id(), null))
                      .compose(v -> Payments.recordPending(tx, r.charge(), r.paymentMethod(), r.checkout()))
                      .compose(v -> approval ? Approvals.await(tx, r.id(), quote) : Future.<Void>succeededFuture())
                      .compose(v -> repository.findJson(tx, r.id(), account, false))
                      .map(found -> IdempotencyKeys.Outcome.fresh(201, found.orElseThrow().encode()))
                      // a saved card is charged after commit, unless the owner must approve first
                      .compose(outcome -> "saved_card".equals(r.paymentMethod()) && !approval
                          ? IdempotencyKeys.rememberPayment(tx, account, r.key(), r.charge().paymentId()).map(outcome)
                          : IdempotencyKeys.store(tx, account, r.key(), outcome.status(), outcome.body()).map(outcome));
                }))))
        .onSuccess(outcome -> {
          if (!outcome.replayed()) {
            CatalogChanges.publish(vertx, "reservation created");
          }
        })
        .recover(failure -> {
          if (isRetryable(failure) && attempt < ATTEMPTS) {
            return attempt(r, attempt + 1);
          }
          if (isRetryable(failure) || failure instanceof NotEnoughGpus) {
            return conflict(r.hostId(), quote, failure instanceof NotEnoughGpus few ? few.free : -1);
          }
          return Future.failedFuture(failure);
        });
  }

  /**
   * Under the host's capacity lock (held to the end of {@code tx}), refuses [start, end) when
   * planned maintenance keeps it free: 409 naming the window.
   */
  static Future<Void> refuseMaintenance(SqlConnection tx, String hostId, OffsetDateTime start,
      OffsetDateTime end) {
    return ReservationGpuRepository.lockCapacity(tx, hostId)
        .compose(v -> ReservationGpuRepository.maintenance(tx, hostId, start, end))
        .map(found -> {
          found.ifPresent(window -> {
            throw new Conflict("Host " + hostId + " is in planned maintenance " + window.id() + " from "
                + window.startsAt().toInstant() + " to " + window.endsAt().toInstant()
                + (window.drain() ? " and takes no new reservation until then" : "")
                + "; choose a window that does not overlap it.", new JsonObject().put("maintenance", new JsonObject()
                    .put("id", window.id()).put("starts_at", window.startsAt().toInstant().toString())
                    .put("ends_at", window.endsAt().toInstant().toString()).put("drain", window.drain())));
          });
          return null;
        });
  }

  private Future<IdempotencyKeys.Outcome> conflict(String hostId, Quote quote, int free) {
    OffsetDateTime start = quote.start().atOffset(ZoneOffset.UTC);
    Future<Optional<OffsetDateTime>> nextFree = ReservationGpuRepository.nextFreeStart(repository.pool(), hostId, start,
        quote.gpuCount(), quote.hours());
    return nextFree.compose(next -> {
      JsonObject details = new JsonObject().put("gpus_free", Math.max(free, 0))
          .put("next_free_window", next.map(s -> new JsonObject().put("start", s.toInstant().toString())
              .put("end", s.toInstant().plus(Duration.ofHours(quote.hours())).toString())).orElse(null));
      return Future.failedFuture(new Conflict("Only " + Math.max(free, 0) + " of the " + quote.gpuCount()
          + " GPUs are free for this whole window; another reservation took them.", details));
    });
  }

  static JsonObject priceOf(Quote quote) {
    JsonObject json = quote.toJson();
    return new JsonObject().put("quote_id", quote.id()).put("items", json.getJsonArray("items"))
        .put("total", json.getJsonObject("total")).put("price_per_gpu_hour", json.getJsonObject("price_per_gpu_hour"))
        .put("cancellation_policy", quote.cancellationPolicy())
        .put("cancellation_fee_bps", quote.cancellationFeeBps()).put("ready_guarantee", quote.readyGuarantee());
  }

  static boolean isRetryable(Throwable failure) {
    return failure instanceof PgException pg && RETRYABLE.contains(pg.getSqlState());
  }

  /** Fewer free GPUs than asked for, seen before writing. */
  private static final class NotEnoughGpus extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int free;

    NotEnoughGpus(int free) {
      super(null, null, false, false);
      this.free = free;
    }
  }
}
