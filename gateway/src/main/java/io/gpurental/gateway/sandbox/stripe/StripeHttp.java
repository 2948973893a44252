package io.gpurental.gateway.sandbox.stripe;

import io.gpurental.gateway.platform.Hashes;
import io.gpurental.gateway.platform.Ids;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the Stripe stand-in: API key check (bearer or Basic), form decoding, {@code Idempotency-Key}
 * replay (same key + same request → the stored answer; different request → idempotency_error),
 * and Stripe's response headers and error bodies.
 */
final class StripeHttp {
  private static final Logger LOG = LoggerFactory.getLogger(StripeHttp.class);
  private final Pool pool;
  private final String secretKey;
  private final String apiVersion;

  StripeHttp(Pool pool, String secretKey, String apiVersion) {
    this.pool = pool;
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

  /** A handler answering {@code operation(params, ctx)}'s object as JSON, the way Stripe does. */
  Handler<RoutingContext> handle(BiFunction<JsonObject, RoutingContext, Future<JsonObject>> operation) {
    return ctx -> {
      ctx.response().putHeader("Stripe-Version", apiVersion).putHeader("Request-Id", "req_" + Ids.randomBase62(14));
      String authorization = ctx.request().getHeader("Authorization");
      if (!authenticated(authorization)) {
        answer(ctx, StripeError.authentication("Invalid API Key provided: " + masked(authorization)));
        return;
      }
      boolean post = ctx.request().method() == HttpMethod.POST;
      String raw = post ? ctx.body().asString() : ctx.request().query();
      JsonObject params;
      try {
        params = FormDecoder.decode(raw);
      } catch (IllegalArgumentException e) {
        answer(ctx, StripeError.invalidRequest(e.getMessage(), null));
        return;
      }
      String key = ctx.request().getHeader("Idempotency-Key");
      if (!post || key == null) {
        run(ctx, operation, params);
        return;
      }
      String hash = Hashes.sha256Hex(ctx.request().path() + "\n" + (raw == null ? "" : raw));
      pool.preparedQuery("INSERT INTO sandbox_stripe.idempotency_keys (key, request_hash, status) VALUES ($1, $2, 0)"
              + " ON CONFLICT (key) DO NOTHING RETURNING key")
          .execute(Tuple.of(key, hash))
          .compose(inserted -> inserted.size() == 1 ? Future.succeededFuture(true) : replay(ctx, key, hash))
          .onSuccess(fresh -> {
            if (fresh) {
              run(ctx, operation, params).onComplete(v -> remember(key, ctx));
            }
          })
          .onFailure(failure -> answer(ctx, failure));
    };
  }

  private Future<JsonObject> run(RoutingContext ctx, BiFunction<JsonObject, RoutingContext, Future<JsonObject>> operation,
      JsonObject params) {
    Future<JsonObject> result;
    try {
      result = operation.apply(params, ctx);
    } catch (NumberFormatException e) {
      result = Future.failedFuture(StripeError.invalidRequest("Invalid integer: " + e.getMessage(), null));
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    result = result.recover(failure -> Future.failedFuture(failure instanceof NumberFormatException
        ? StripeError.invalidRequest("Invalid integer: " + failure.getMessage(), null) : failure));
    return result.onSuccess(object -> {
      String body = Objects.visible(object).encodePrettily();
      ctx.put("stripe.body", body);
      ctx.response().setStatusCode(200).putHeader("Content-Type", "application/json").end(body);
    }).onFailure(failure -> answer(ctx, failure));
  }

  /** Replays a stored answer for the same request; refuses the key for a different one. */
  private Future<Boolean> replay(RoutingContext ctx, String key, String hash) {
    return pool.preparedQuery("SELECT request_hash, status, body FROM sandbox_stripe.idempotency_keys WHERE key = $1")
        .execute(Tuple.of(key)).map(rows -> {
          var row = rows.iterator().next();
          if (!row.getString("request_hash").equals(hash)) {
            throw StripeError.idempotency(400, "Keys for idempotent requests can only be used with the same parameters"
                + " they were first used with. Try using a key other than '" + key + "' if you meant to execute a"
                + " different request.");
          }
          if (row.getInteger("status") == 0) {
            throw StripeError.idempotency(409, "There is currently another in-progress request using this Stripe API"
                + " key and idempotency key ('" + key + "'). Please try again later.");
          }
          ctx.response().setStatusCode(row.getInteger("status")).putHeader("Content-Type", "application/json")
              .putHeader("Idempotent-Replayed", "true").end(row.getString("body"));
          return false;
        });
  }

  private void remember(String key, RoutingContext ctx) {
    String body = ctx.get("stripe.body");
    pool.preparedQuery("UPDATE sandbox_stripe.idempotency_keys SET status = $2, body = $3 WHERE key = $1")
        .execute(Tuple.of(key, ctx.response().getStatusCode(), body))
        .onFailure(e -> LOG.warn("Could not store the idempotent answer for {}", key, e));
  }

  private static void answer(RoutingContext ctx, Throwable failure) {
    StripeError error = failure instanceof StripeError stripe ? stripe : null;
    if (error == null) {
      LOG.error("Stripe sandbox failed on {} {}", ctx.request().method(), ctx.request().path(), failure);
      ctx.put("stripe.body", new JsonObject().put("error", new JsonObject().put("type", "api_error")
          .put("message", "An unknown error occurred")).encode());
      ctx.response().setStatusCode(500).putHeader("Content-Type", "application/json").end((String) ctx.get("stripe.body"));
      return;
    }
    String body = error.body().encodePrettily();
    ctx.put("stripe.body", body);
    ctx.response().setStatusCode(error.status).putHeader("Content-Type", "application/json").end(body);
  }

  private static String masked(String authorization) {
    if (authorization == null || authorization.length() < 11) {
      return "(none)";
    }
    String key = authorization.substring(7);
    return key.substring(0, Math.min(8, key.length())) + "*********" + key.substring(Math.max(key.length() - 4, 0));
  }
}
