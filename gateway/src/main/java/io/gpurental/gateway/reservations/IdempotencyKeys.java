package io.gpurental.gateway.reservations;

import io.gpurental.gateway.platform.Hashes;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Unprocessable;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code Idempotency-Key} for POSTs that create or pay, per account: the same key with the same
 * request gets the stored response; with a different request, 422. A saved-card charge that did
 * not finish (crash, timeout) is remembered by its payment id, so a retry finishes that charge
 * instead of starting another.
 */
final class IdempotencyKeys {
  /** As long as Stripe keeps its keys: a client retrying later than this is making a new request. */
  static final Duration RETENTION = Duration.ofHours(24);
  private static final Logger LOG = LoggerFactory.getLogger(IdempotencyKeys.class);
  private static final String PRUNE = "DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1)";
  private static final String FIND = "SELECT request_hash, response_status, response_body, payment_id FROM idempotency_keys"
      + " WHERE account_id = $1 AND key = $2";
  private static final String CLAIM = "INSERT INTO idempotency_keys (account_id, key, request_hash) VALUES ($1, $2, $3)"
      + " ON CONFLICT DO NOTHING RETURNING key";
  private static final String STORE = "UPDATE idempotency_keys SET response_status = $3, response_body = $4"
      + " WHERE account_id = $1 AND key = $2";
  private static final String REMEMBER_PAYMENT =
      "UPDATE idempotency_keys SET payment_id = $3 WHERE account_id = $1 AND key = $2";
  private final Pool pool;

  IdempotencyKeys(Pool pool) {
    this.pool = pool;
  }

  /** Forgets keys older than {@link #RETENTION}; completes with how many. */
  Future<Integer> prune() {
    return pool.preparedQuery(PRUNE)
        .execute(Tuple.of(RETENTION.toSeconds()))
        .map(rows -> {
          if (rows.rowCount() > 0) {
            LOG.info("Pruned {} idempotency key(s) older than {} h", rows.rowCount(), RETENTION.toHours());
          }
          return rows.rowCount();
        });
  }

  /** A response to send: a stored one ({@code replayed}), or a charge to finish ({@code resumePaymentId}). */
  record Outcome(int status, String body, boolean replayed, String resumePaymentId) {
    static Outcome fresh(int status, String body) {
      return new Outcome(status, body, false, null);
    }
  }

  /**
   * What an earlier request with this key left: a finished response (replayed before anything
   * else is checked, so a retry succeeds even after its quote expired), a charge to finish, or
   * nothing (null).
   */
  Future<Outcome> earlier(String accountId, String key, String request) {
    if (key == null) {
      return Future.succeededFuture(null);
    }
    return pool.preparedQuery(FIND).execute(Tuple.of(accountId, key))
        .map(rows -> rows.size() == 0 ? null : stored(rows.iterator().next(), request, false));
  }

  /**
   * Records the key inside the creating transaction, or finds it: a concurrent request with the
   * same key waits on the key's row until the first commits, so both answer the same.
   */
  static Future<Outcome> claim(SqlConnection tx, String accountId, String key, String request) {
    if (key == null) {
      return Future.succeededFuture(null);
    }
    return tx.preparedQuery(CLAIM).execute(Tuple.of(accountId, key, hash(request)))
        .compose(inserted -> inserted.size() == 1 ? Future.succeededFuture((Outcome) null)
            : tx.preparedQuery(FIND).execute(Tuple.of(accountId, key))
                .map(rows -> stored(rows.iterator().next(), request, true)));
  }

  private static Outcome stored(Row row, String request, boolean claiming) {
    if (!row.getString("request_hash").equals(hash(request))) {
      throw new Unprocessable("idempotency-key-reused", "Idempotency key reused",
          "This Idempotency-Key was used with a different request; use a new key.");
    }
    if (row.getInteger("response_status") != null) {
      return new Outcome(row.getInteger("response_status"), row.getString("response_body"), true, null);
    }
    if (row.getString("payment_id") != null) {
      return new Outcome(0, null, true, row.getString("payment_id"));
    }
    if (claiming) {
      throw new Conflict("A request with this Idempotency-Key is still being processed; retry in a moment.");
    }
    return null;
  }

  /** The response of a finished request. */
  static Future<Void> store(SqlClient client, String accountId, String key, int status, String body) {
    if (key == null) {
      return Future.succeededFuture();
    }
    return client.preparedQuery(STORE).execute(Tuple.of(accountId, key, status, body)).mapEmpty();
  }

  /** The charge a request started, so a retry finishes it. */
  static Future<Void> rememberPayment(SqlClient client, String accountId, String key, String paymentId) {
    if (key == null) {
      return Future.succeededFuture();
    }
    return client.preparedQuery(REMEMBER_PAYMENT).execute(Tuple.of(accountId, key, paymentId)).mapEmpty();
  }

  Pool pool() {
    return pool;
  }

  private static String hash(String request) {
    return Hashes.sha256Hex(request == null ? "" : request);
  }
}
