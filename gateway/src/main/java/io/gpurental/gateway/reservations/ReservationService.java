package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.payments.StripeGateway;
import io.gpurental.gateway.platform.Hashes;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Unprocessable;
import io.gpurental.gateway.pricing.Quote;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Set;

/**
 * Creates reservations: in one transaction it records the idempotency key, picks free GPUs on the
 * host, writes the reservation, one {@code reservation_gpus} row per GPU (the exclusion constraint
 * is the final guard against double booking) and the first event. Conflicts between concurrent
 * creations are retried a few times before answering 409.
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

  /** A response to send: created (201), or {@code replayed} from an earlier identical request. */
  record Outcome(int status, String body, boolean replayed) {}

  /**
   * The stored response of an earlier request with this key, when there is a finished one: it is
   * replayed before anything else is checked, so a retry succeeds even after its quote expired.
   */
  Future<Outcome> earlier(String accountId, String key, String requestBody) {
    if (key == null) {
      return Future.succeededFuture(null);
    }
    return repository.pool().preparedQuery("SELECT request_hash, response_status, response_body FROM idempotency_keys"
        + " WHERE account_id = $1 AND key = $2 AND response_status IS NOT NULL").execute(Tuple.of(accountId, key))
        .map(rows -> rows.size() == 0 ? null : replay(rows.iterator().next(), requestBody, key));
  }

  private static Outcome replay(io.vertx.sqlclient.Row row, String requestBody, String key) {
    if (!row.getString("request_hash").equals(Hashes.sha256Hex(requestBody == null ? "" : requestBody))) {
      throw new Unprocessable("idempotency-key-reused", "Idempotency key reused",
          "This Idempotency-Key was used with a different request; use a new key.");
    }
    return new Outcome(row.getInteger("response_status"), row.getString("response_body"), true);
  }

  Future<Outcome> create(String id, Principal caller, Quote quote, String hostId, SshPublicKey ssh,
      String paymentMethod, StripeGateway.Checkout checkout, String idempotencyKey, String requestBody) {
    if (quote.start().isBefore(java.time.Instant.now().minus(Duration.ofMinutes(5)))) {
      return Future.failedFuture(new io.gpurental.gateway.platform.errors.Gone("The quote's window started at "
          + quote.start() + "; ask for a new quote starting now or later."));
    }
    return attempt(id, caller, quote, hostId, ssh, paymentMethod, checkout, idempotencyKey, requestBody, 1);
  }

  private Future<Outcome> attempt(String id, Principal caller, Quote quote, String hostId, SshPublicKey ssh,
      String paymentMethod, StripeGateway.Checkout checkout, String key, String requestBody, int attempt) {
    OffsetDateTime start = quote.start().atOffset(ZoneOffset.UTC);
    OffsetDateTime end = quote.end().atOffset(ZoneOffset.UTC);
    return repository.pool().withTransaction(tx -> claimKey(tx, caller.accountId(), key, requestBody)
        .compose(replay -> replay != null ? Future.succeededFuture(replay)
            : ReservationRepository.freeGpus(tx, hostId, start, end, quote.gpuCount()).compose(gpus -> {
              if (gpus.size() < quote.gpuCount()) {
                return Future.failedFuture(new NotEnoughGpus(gpus.size()));
              }
              OffsetDateTime holdUntil = OffsetDateTime.now(ZoneOffset.UTC).plus(hold);
              NewReservation reservation = new NewReservation(id, caller.accountId(), quote.offerId(), hostId,
                  quote.gpuCount(), start, end, holdUntil, quote.id(), priceOf(quote), quote.total().amount(),
                  quote.total().currency(), ssh, paymentMethod, gpus);
              return ReservationRepository.insert(tx, reservation)
                  .compose(v -> checkout == null ? Future.<Void>succeededFuture()
                      : tx.preparedQuery("INSERT INTO payments (id, reservation_id, account_id, kind, checkout_session_id,"
                          + " checkout_url, amount, currency, status) VALUES ($1, $2, $3, 'charge', $4, $5, $6, $7, 'pending')")
                      .execute(Tuple.from(new Object[] {Ids.newId("pay"), id, caller.accountId(), checkout.sessionId(),
                          checkout.url(), quote.total().amount(), quote.total().currency()})).mapEmpty())
                  .compose(v -> repository.find(tx, id, caller.accountId(), false))
                  .map(found -> new Outcome(201, found.orElseThrow().encode(), false))
                  .compose(outcome -> storeResponse(tx, caller.accountId(), key, outcome).map(outcome));
            })))
        .onSuccess(outcome -> {
          if (!outcome.replayed()) {
            CatalogChanges.publish(vertx, "reservation created");
          }
        })
        .recover(failure -> {
          if (isRetryable(failure) && attempt < ATTEMPTS) {
            return attempt(id, caller, quote, hostId, ssh, paymentMethod, checkout, key, requestBody, attempt + 1);
          }
          if (isRetryable(failure) || failure instanceof NotEnoughGpus) {
            return conflict(hostId, quote, failure instanceof NotEnoughGpus few ? few.free : -1);
          }
          return Future.failedFuture(failure);
        });
  }

  /**
   * Records the key for this account, or finds it: a finished request with the same body is
   * replayed, a different body is refused. A concurrent request with the same key waits on the
   * key's row until the first commits, so both answer the same.
   */
  private static Future<Outcome> claimKey(SqlConnection tx, String accountId, String key, String requestBody) {
    if (key == null) {
      return Future.succeededFuture(null);
    }
    String hash = Hashes.sha256Hex(requestBody == null ? "" : requestBody);
    return tx.preparedQuery("INSERT INTO idempotency_keys (account_id, key, request_hash) VALUES ($1, $2, $3)"
            + " ON CONFLICT DO NOTHING RETURNING key").execute(Tuple.of(accountId, key, hash))
        .compose(inserted -> inserted.size() == 1 ? Future.succeededFuture((Outcome) null)
            : tx.preparedQuery("SELECT request_hash, response_status, response_body FROM idempotency_keys"
                + " WHERE account_id = $1 AND key = $2").execute(Tuple.of(accountId, key))
                .map(rows -> replay(rows.iterator().next(), requestBody, key)));
  }

  private static Future<Void> storeResponse(SqlConnection tx, String accountId, String key, Outcome outcome) {
    if (key == null) {
      return Future.succeededFuture();
    }
    return tx.preparedQuery("UPDATE idempotency_keys SET response_status = $3, response_body = $4"
        + " WHERE account_id = $1 AND key = $2").execute(Tuple.of(accountId, key, outcome.status(), outcome.body()))
        .mapEmpty();
  }

  private Future<Outcome> conflict(String hostId, Quote quote, int free) {
    OffsetDateTime start = quote.start().atOffset(ZoneOffset.UTC);
    return repository.nextFreeStart(hostId, start, quote.gpuCount(), quote.hours()).compose(next -> {
      JsonObject details = new JsonObject().put("gpus_free", Math.max(free, 0))
          .put("next_free_window", next.map(s -> new JsonObject().put("start", s.toInstant().toString())
              .put("end", s.toInstant().plus(Duration.ofHours(quote.hours())).toString())).orElse(null));
      return Future.failedFuture(new Conflict("Only " + Math.max(free, 0) + " of the " + quote.gpuCount()
          + " GPUs are free for this whole window; another reservation took them.", details));
    });
  }

  private static JsonObject priceOf(Quote quote) {
    JsonObject json = quote.toJson();
    return new JsonObject().put("quote_id", quote.id()).put("items", json.getJsonArray("items"))
        .put("total", json.getJsonObject("total")).put("price_per_gpu_hour", json.getJsonObject("price_per_gpu_hour"))
        .put("cancellation_policy", quote.cancellationPolicy());
  }

  private static boolean isRetryable(Throwable failure) {
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
