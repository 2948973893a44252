package io.gpurental.gateway.sandbox.stripe;

import io.gpurental.gateway.platform.Hashes;
import io.gpurental.gateway.platform.Ids;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the Stripe stand-in: API key check (bearer or Basic), form decoding, and Stripe's
 * response headers and error bodies. Every POST runs in one database transaction, atomic as a Stripe
 * request is: with an {@code Idempotency-Key}, the key, the objects the operation wrote and the
 * recorded answer commit together or not at all (a node killed mid-way leaves nothing, so the retry
 * runs the operation). The same key again replays the answer; with other parameters it is an
 * idempotency_error (400); while the first request with it is still in flight, a 409.
 */
final class StripeHttp {
  private static final Logger LOG = LoggerFactory.getLogger(StripeHttp.class);
  /** Held by the request running with a key until its transaction ends; a second one does not wait for it. */
  private static final String KEY_TURN =
      "SELECT pg_try_advisory_xact_lock(hashtextextended('sandbox-stripe-idempotency:' || $1, 0)) AS mine";
  private static final String STORED = "SELECT request_hash, status, body FROM sandbox_stripe.idempotency_keys"
      + " WHERE key = $1";
  /** Status 0 is a request begun by a version that recorded keys before running (never written now). */
  private static final String REMEMBER = "INSERT INTO sandbox_stripe.idempotency_keys (key, request_hash, status, body)"
      + " VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO UPDATE SET request_hash = EXCLUDED.request_hash,"
      + " status = EXCLUDED.status, body = EXCLUDED.body WHERE sandbox_stripe.idempotency_keys.status = 0";
  private final Pool pool;
  private final StripeOps ops;
  private final String secretKey;
  private final String apiVersion;

  /** One Stripe operation: the request's decoded parameters, its context, and what to work with. */
  @FunctionalInterface
  interface Operation {
    Future<JsonObject> apply(JsonObject params, RoutingContext ctx, StripeOps ops);
  }

  /** What a request answers: fresh, or replayed from its idempotency key. */
  private record Answer(int status, String body, boolean replayed) {}

  StripeHttp(Pool pool, StripeOps ops, String secretKey, String apiVersion) {
    this.pool = pool;
    this.ops = ops;
    this.secretKey = secretKey;
    this.apiVersion = apiVersion;
  }

  /**
   * Stripe takes the secret key as a bearer token or, as in every curl example of its docs
   * ({@code curl -u sk_test_…:}), as the HTTP Basic user name with an empty password.
   */
  private boolean authenticated(String authorization) {
    if (authorization == null) {
      return false;
    }
    String basic = Base64.getEncoder().encodeToString((secretKey + ":").getBytes(StandardCharsets.UTF_8));
    return authorization.equals("Bearer " + secretKey) || authorization.equals("Basic " + basic);
  }

  /** A handler answering the operation's object as JSON, the way Stripe does. */
  Handler<RoutingContext> handle(Operation operation) {
    return ctx -> {
      ctx.response().putHeader("Stripe-Version", apiVersion).putHeader("Request-Id", "req_" + Ids.randomBase62(14));
      String authorization = ctx.request().getHeader("Authorization");
      if (!authenticated(authorization)) {
        send(ctx, error(StripeError.authentication("Invalid API Key provided: " + masked(authorization))));
        return;
      }
      boolean post = ctx.request().method() == HttpMethod.POST;
      String raw = post ? ctx.body().asString() : ctx.request().query();
      JsonObject params;
      try {
        params = FormDecoder.decode(raw);
      } catch (IllegalArgumentException e) {
        send(ctx, error(StripeError.invalidRequest(e.getMessage(), null)));
        return;
      }
      Future<Answer> answer;
      if (!post) {
        answer = run(operation, params, ctx, ops);
      } else {
        String key = ctx.request().getHeader("Idempotency-Key");
        String hash = Hashes.sha256Hex(ctx.request().path() + "\n" + (raw == null ? "" : raw));
        answer = pool.withTransaction(conn -> atomically(conn, key, hash, operation, params, ctx));
      }
      answer.onSuccess(done -> send(ctx, done)).onFailure(failure -> send(ctx, unexpected(ctx, failure)));
    };
  }

  /** The key's stored answer, or the operation run and its answer recorded, all in the caller's transaction. */
  private Future<Answer> atomically(SqlConnection conn, String key, String hash, Operation operation, JsonObject params,
      RoutingContext ctx) {
    Future<Answer> stored = key == null ? Future.succeededFuture() : stored(conn, key, hash);
    return stored.compose(replay -> {
      if (replay != null) {
        return Future.succeededFuture(replay);
      }
      return conn.query("SAVEPOINT operation").execute()
          .compose(v -> run(operation, params, ctx, ops.on(conn)))
          .compose(fresh -> fresh.status() == 200 || fresh.status() == 402 ? Future.succeededFuture(fresh)
              // a refused request changes nothing (a card decline does: the intent keeps its last_payment_error)
              : conn.query("ROLLBACK TO SAVEPOINT operation").execute().map(fresh))
          .compose(fresh -> key == null ? Future.succeededFuture(fresh)
              : conn.preparedQuery(REMEMBER).execute(Tuple.of(key, hash, fresh.status(), fresh.body())).map(fresh));
    });
  }

  /**
   * Takes the key's turn and reads what it answered before: null when it never finished. Refuses
   * the key when its first request is still in flight (409) or had other parameters (400).
   */
  private static Future<Answer> stored(SqlConnection conn, String key, String hash) {
    return conn.preparedQuery(KEY_TURN).execute(Tuple.of(key)).compose(turn -> {
      if (!turn.iterator().next().getBoolean("mine")) {
        return Future.failedFuture(StripeError.idempotency(409, "There is currently another in-progress request using"
            + " this Stripe API key and idempotency key ('" + key + "'). Please try again later."));
      }
      return conn.preparedQuery(STORED).execute(Tuple.of(key)).map(rows -> {
        if (rows.size() == 0) {
          return null;
        }
        var row = rows.iterator().next();
        if (!row.getString("request_hash").equals(hash)) {
          throw StripeError.idempotency(400, "Keys for idempotent requests can only be used with the same parameters"
              + " they were first used with. Try using a key other than '" + key + "' if you meant to execute a"
              + " different request.");
        }
        int status = row.getInteger("status");
        return status == 0 ? null : new Answer(status, row.getString("body"), true);
      });
    });
  }

  /** The operation's answer; a Stripe error is an answer too, any other failure fails (and rolls back). */
  private static Future<Answer> run(Operation operation, JsonObject params, RoutingContext ctx, StripeOps ops) {
    Future<JsonObject> result;
    try {
      result = operation.apply(params, ctx, ops);
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    return result.map(object -> new Answer(200, Objects.visible(object).encodePrettily(), false))
        .recover(failure -> {
          if (failure instanceof NumberFormatException) {
            return Future.succeededFuture(error(StripeError.invalidRequest("Invalid integer: " + failure.getMessage(),
                null)));
          }
          return failure instanceof StripeError stripe ? Future.succeededFuture(error(stripe))
              : Future.failedFuture(failure);
        });
  }

  private static Answer error(StripeError error) {
    return new Answer(error.status, error.body().encodePrettily(), false);
  }

  /** Idempotency refusals are Stripe errors; anything else is Stripe's 500, logged once. */
  private static Answer unexpected(RoutingContext ctx, Throwable failure) {
    if (failure instanceof StripeError stripe) {
      return error(stripe);
    }
    LOG.error("Stripe sandbox failed on {} {}", ctx.request().method(), ctx.request().path(), failure);
    return new Answer(500, new JsonObject().put("error", new JsonObject().put("type", "api_error")
        .put("message", "An unknown error occurred")).encode(), false);
  }

  private static void send(RoutingContext ctx, Answer answer) {
    if (ctx.response().ended() || ctx.response().closed()) {
      return;
    }
    if (answer.replayed()) {
      ctx.response().putHeader("Idempotent-Replayed", "true");
    }
    ctx.response().setStatusCode(answer.status()).putHeader("Content-Type", "application/json").end(answer.body());
  }

  private static String masked(String authorization) {
    if (authorization == null || authorization.length() < 11) {
      return "(none)";
    }
    String key = authorization.substring(7);
    return key.substring(0, Math.min(8, key.length())) + "*********" + key.substring(Math.max(key.length() - 4, 0));
  }
}
