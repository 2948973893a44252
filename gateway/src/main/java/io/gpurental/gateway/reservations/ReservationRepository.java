package io.gpurental.gateway.reservations;

import io.gpurental.gateway.payments.Refunds;
import io.gpurental.gateway.platform.Page;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reservations, their GPUs and their event history in PostgreSQL. */
public final class ReservationRepository {
  static final String FREE_GPUS = """
      SELECT g.gpu_id FROM host_gpus_view g
      WHERE g.host_id = $1 AND g.host_status = 'active' AND NOT EXISTS (
        SELECT 1 FROM reservation_gpus r WHERE r.gpu_id = g.gpu_id AND r.active AND r.period && tstzrange($2, $3))
      ORDER BY g.idx LIMIT $4""";
  /** The first start, hour by hour after $2 (up to 14 days), when $3 GPUs are free for $4 hours. */
  private static final String NEXT_FREE_START = """
      SELECT $2::timestamptz + k * interval '1 hour' AS start FROM generate_series(1, 336) AS k
      WHERE (SELECT count(*) FROM host_gpus_view g
             WHERE g.host_id = $1 AND g.host_status = 'active' AND NOT EXISTS (
               SELECT 1 FROM reservation_gpus r WHERE r.gpu_id = g.gpu_id AND r.active
                 AND r.period && tstzrange($2::timestamptz + k * interval '1 hour',
                                           $2::timestamptz + (k + $4::integer) * interval '1 hour'))) >= $3
      ORDER BY k LIMIT 1""";
  private static final String INSERT = """
      INSERT INTO reservations (id, account_id, offer_id, host_id, gpu_count, period, status, hold_expires_at,
        quote_id, price, total_amount, currency, ssh_public_key, ssh_fingerprint, payment_method)
      VALUES ($1, $2, $3, $4, $5, tstzrange($6, $7), 'pending_payment', $8, $9, $10, $11, $12, $13, $14, $15)""";
  private static final String INSERT_GPUS = """
      INSERT INTO reservation_gpus (reservation_id, gpu_id, period, extension_id)
      SELECT $1, unnest($2::text[]), tstzrange($3, $4), $5""";
  private static final String EVENT = """
      INSERT INTO reservation_events (reservation_id, from_status, to_status, cause) VALUES ($1, $2, $3, $4)""";
  private static final String SELECT = """
      SELECT r.*, lower(r.period) AS start_at, upper(r.period) AS end_at,
             array(SELECT g.idx FROM reservation_gpus rg JOIN host_gpus_view g ON g.gpu_id = rg.gpu_id
                   WHERE rg.reservation_id = r.id AND rg.extension_id IS NULL ORDER BY g.idx) AS gpu_indexes,
             coalesce((SELECT json_agg(json_build_object('at', e.at, 'from', e.from_status, 'to', e.to_status,
                         'cause', e.cause) ORDER BY e.id) FROM reservation_events e WHERE e.reservation_id = r.id),
                      '[]') AS events,
             (SELECT json_build_object('id', p.payment_id, 'status', p.status, 'checkout_url', p.checkout_url,
                                       'amount', p.amount, 'amount_refunded', p.amount_refunded,
                                       'failure_message', p.failure_message)
              FROM reservation_payments_view p WHERE p.reservation_id = r.id AND p.extension_id IS NULL
              ORDER BY p.created_at DESC, p.payment_id DESC LIMIT 1) AS payment,
             (SELECT coalesce(sum(p.amount), 0) FROM reservation_payments_view p
              WHERE p.reservation_id = r.id AND p.status IN ('succeeded', 'refunded')) AS amount_captured,
             coalesce((SELECT json_agg(%s ORDER BY f.created_at)
                       FROM reservation_refunds_view f WHERE f.reservation_id = r.id), '[]') AS refunds,
             coalesce((SELECT json_agg(json_build_object('id', x.id, 'hours', x.hours, 'start', lower(x.period),
                         'end', upper(x.period), 'status', x.status, 'hold_expires_at', x.hold_expires_at,
                         'amount', x.total_amount, 'currency', x.currency,
                         'checkout_url', (SELECT p.checkout_url FROM reservation_payments_view p WHERE p.extension_id = x.id
                                          AND p.status = 'pending' ORDER BY p.created_at DESC LIMIT 1))
                         ORDER BY x.created_at) FROM reservation_extensions x WHERE x.reservation_id = r.id), '[]')
               AS extensions
      FROM reservations r""".formatted(Refunds.AS_JSON);
  /** Lapsed holds, locked; each is expired through the state machine. */
  private static final String LAPSED_HOLDS = """
      SELECT id, status, account_id FROM reservations
      WHERE status = 'pending_payment' AND hold_expires_at < now() FOR UPDATE SKIP LOCKED""";

  /** Lapsed unpaid extensions: their GPU hours after the end are released. */
  private static final String EXPIRE_EXTENSIONS = """
      WITH lapsed AS (
        UPDATE reservation_extensions SET status = 'expired', hold_expires_at = NULL
        WHERE status = 'pending_payment' AND hold_expires_at < now() RETURNING id, reservation_id, hours),
      released AS (
        UPDATE reservation_gpus SET active = false WHERE extension_id IN (SELECT id FROM lapsed) RETURNING 1),
      logged AS (
        INSERT INTO reservation_events (reservation_id, from_status, to_status, cause)
        SELECT l.reservation_id, r.status, r.status, 'extension by ' || l.hours || ' h lapsed unpaid'
        FROM lapsed l JOIN reservations r ON r.id = l.reservation_id RETURNING reservation_id)
      SELECT r.id, r.account_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM logged)""";

  private final Pool pool;
  private final RefundPolicy policy;

  ReservationRepository(Pool pool, RefundPolicy policy) {
    this.pool = pool;
    this.policy = policy;
  }

  RefundPolicy policy() {
    return policy;
  }

  /** The API shape of a reservation (the HTTP edge's). */
  JsonObject json(Reservation reservation) {
    return ReservationJson.of(reservation, policy);
  }

  Pool pool() {
    return pool;
  }

  static Future<List<String>> freeGpus(SqlClient tx, String hostId, OffsetDateTime start, OffsetDateTime end, int count) {
    return tx.preparedQuery(FREE_GPUS).execute(Tuple.of(hostId, start, end, count)).map(rows -> {
      List<String> ids = new ArrayList<>();
      rows.forEach(row -> ids.add(row.getString(0)));
      return ids;
    });
  }

  /** The host an offer's GPUs are on. */
  Future<String> hostOf(String offerId) {
    return pool.preparedQuery("SELECT host_id FROM offer_hosts_view WHERE offer_id = $1").execute(Tuple.of(offerId))
        .map(rows -> rows.iterator().next().getString(0));
  }

  /** The text of one of the account's saved SSH keys. */
  Future<Optional<String>> savedSshKey(String keyId, String accountId) {
    return pool.preparedQuery("SELECT public_key FROM ssh_keys WHERE id = $1 AND account_id = $2")
        .execute(Tuple.of(keyId, accountId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
  }

  Future<Optional<OffsetDateTime>> nextFreeStart(String hostId, OffsetDateTime start, int count, int hours) {
    return pool.preparedQuery(NEXT_FREE_START).execute(Tuple.of(hostId, start, count, hours))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getOffsetDateTime(0)));
  }

  static Future<Void> insert(SqlClient tx, NewReservation r) {
    Tuple params = Tuple.from(new Object[] {r.id(), r.accountId(), r.offerId(), r.hostId(), r.gpuCount(), r.start(),
        r.end(), r.holdExpiresAt(), r.quoteId(), r.price(), r.total(), r.currency(), r.ssh().text(),
        r.ssh().fingerprint(), r.paymentMethod()});
    return tx.preparedQuery(INSERT).execute(params)
        .compose(v -> tx.preparedQuery(INSERT_GPUS).execute(Tuple.of(r.id(), r.gpuIds().toArray(new String[0]),
            r.start(), r.end(), null)))
        .compose(v -> tx.preparedQuery(EVENT).execute(Tuple.of(r.id(), null, ReservationStatus.PENDING_PAYMENT.id(), "created")))
        .mapEmpty();
  }

  /** The reservation, if the caller may see it (its owner, or any operator). */
  Future<Optional<Reservation>> find(SqlClient client, String id, String accountId, boolean operator) {
    return client.preparedQuery(SELECT + " WHERE r.id = $1 AND ($3 OR r.account_id = $2)")
        .execute(Tuple.of(id, accountId, operator))
        .map(rows -> rows.size() == 0 ? Optional.empty()
            : Optional.of(ReservationRows.reservation(rows.iterator().next())));
  }

  /** {@link #find}, in its API shape. */
  Future<Optional<JsonObject>> findJson(SqlClient client, String id, String accountId, boolean operator) {
    return find(client, id, accountId, operator).map(found -> found.map(this::json));
  }

  Future<List<Reservation>> list(String accountId, boolean operator, String status, Optional<Page.Position> after, int limit) {
    String sql = SELECT + " WHERE ($2 OR r.account_id = $1) AND ($3::text IS NULL OR r.status = $3)"
        + " AND ($4::timestamptz IS NULL OR (r.created_at, r.id) < ($4, $5))"
        + " ORDER BY r.created_at DESC, r.id DESC LIMIT $6";
    return pool.preparedQuery(sql).execute(Tuple.of(accountId, operator, status,
            after.map(Page.Position::createdAt).orElse(null), after.map(Page.Position::id).orElse(null), limit + 1))
        .map(rows -> {
          List<Reservation> list = new ArrayList<>();
          rows.forEach(row -> list.add(ReservationRows.reservation(row)));
          return list;
        });
  }

  /**
   * Moves a reservation between states if it is in {@code from}; false when it was not. A move
   * the {@link Lifecycle} does not allow is a bug and fails.
   */
  static Future<Boolean> transition(SqlClient tx, String id, ReservationStatus from, ReservationStatus to, String cause,
      boolean release) {
    if (!Lifecycle.allows(from, to)) {
      return Future.failedFuture(new IllegalStateException("illegal transition " + from + " -> " + to + " of " + id));
    }
    return tx.preparedQuery("UPDATE reservations SET status = $3, updated_at = now(),"
            + " hold_expires_at = CASE WHEN $3 = 'pending_payment' THEN hold_expires_at END"
            + " WHERE id = $1 AND status = $2 RETURNING id")
        .execute(Tuple.of(id, from.id(), to.id()))
        .compose(rows -> rows.size() == 0 ? Future.succeededFuture(false)
            : (release ? tx.preparedQuery("UPDATE reservation_gpus SET active = false WHERE reservation_id = $1")
                .execute(Tuple.of(id)).mapEmpty() : Future.<Void>succeededFuture())
                .compose(v -> tx.preparedQuery(EVENT).execute(Tuple.of(id, from.id(), to.id(), cause)))
                .map(true));
  }

  /**
   * What the renter has paid for this reservation (and its extensions) and not yet had back or
   * been promised back: captured payments minus every refund not failed. Read after locking the
   * reservation, so a payment committed meanwhile is seen.
   */
  static Future<Long> amountKept(SqlClient tx, String id) {
    return tx.preparedQuery("SELECT coalesce(sum(p.amount), 0) - coalesce((SELECT sum(f.amount)"
            + " FROM reservation_refunds_view f WHERE f.reservation_id = $1 AND f.status <> 'failed'), 0)"
            + " FROM reservation_payments_view p WHERE p.reservation_id = $1 AND p.status IN ('succeeded', 'refunded')")
        .execute(Tuple.of(id)).map(rows -> rows.iterator().next().getLong(0));
  }

  /** Records something that happened to a reservation (a status change, or an extension). */
  static Future<Void> event(SqlClient tx, String id, String from, String to, String cause) {
    return tx.preparedQuery(EVENT).execute(Tuple.of(id, from, to, cause)).mapEmpty();
  }

  /** Expires every lapsed hold (reservations and extensions); returns (reservation id, account id) of each. */
  Future<List<String[]>> expireHolds() {
    return pool.withTransaction(tx -> transitionAll(tx, LAPSED_HOLDS, Tuple.tuple(), ReservationStatus.EXPIRED,
            "hold lapsed unpaid", true)
        .compose(reservations -> tx.query(EXPIRE_EXTENSIONS).execute().map(extensions -> {
          List<String[]> expired = new ArrayList<>();
          reservations.forEach(moved -> expired.add(new String[] {moved.id(), moved.accountId()}));
          extensions.forEach(row -> expired.add(new String[] {row.getString("id"), row.getString("account_id")}));
          return expired;
        })));
  }

  /** A reservation a batch moved: from which status, and whose it is. */
  record Moved(String id, String accountId, ReservationStatus from) {}

  /**
   * Moves each reservation {@code due} selects ({@code id, status, account_id}, locked) to
   * {@code to} through the state machine, one after another in the caller's transaction.
   */
  static Future<List<Moved>> transitionAll(SqlConnection tx, String due, Tuple params, ReservationStatus to, String cause,
      boolean release) {
    return tx.preparedQuery(due).execute(params).compose(rows -> {
      List<Moved> moved = new ArrayList<>();
      Future<Void> chain = Future.succeededFuture();
      for (Row row : rows) {
        Moved candidate = new Moved(row.getString("id"), row.getString("account_id"),
            ReservationStatus.of(row.getString("status")));
        chain = chain.compose(v -> transition(tx, candidate.id(), candidate.from(), to, cause, release)
            .map(done -> {
              if (done) {
                moved.add(candidate);
              }
              return null;
            }));
      }
      return chain.map(moved);
    });
  }
}
