package io.gpurental.gateway.reservations;

import io.gpurental.gateway.payments.Refunds;
import io.gpurental.gateway.platform.Page;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reservations, their GPUs and their event history in PostgreSQL. */
public final class ReservationRepository {
  static final String FREE_GPUS = """
      SELECT g.id FROM fleet_gpus_view g JOIN fleet_hosts_view h ON h.id = g.host_id
      WHERE g.host_id = $1 AND h.status = 'active' AND NOT EXISTS (
        SELECT 1 FROM reservation_gpus r WHERE r.gpu_id = g.id AND r.active AND r.period && tstzrange($2, $3))
      ORDER BY g.idx LIMIT $4""";
  /** The first start, hour by hour after $2 (up to 14 days), when $3 GPUs are free for $4 hours. */
  private static final String NEXT_FREE_START = """
      SELECT $2::timestamptz + k * interval '1 hour' AS start FROM generate_series(1, 336) AS k
      WHERE (SELECT count(*) FROM fleet_gpus_view g JOIN fleet_hosts_view h ON h.id = g.host_id
             WHERE g.host_id = $1 AND h.status = 'active' AND NOT EXISTS (
               SELECT 1 FROM reservation_gpus r WHERE r.gpu_id = g.id AND r.active
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
             array(SELECT g.idx FROM reservation_gpus rg JOIN fleet_gpus_view g ON g.id = rg.gpu_id
                   WHERE rg.reservation_id = r.id AND rg.extension_id IS NULL ORDER BY g.idx) AS gpu_indexes,
             coalesce((SELECT json_agg(json_build_object('at', e.at, 'from', e.from_status, 'to', e.to_status,
                         'cause', e.cause) ORDER BY e.id) FROM reservation_events e WHERE e.reservation_id = r.id),
                      '[]') AS events,
             (SELECT json_build_object('id', p.id, 'status', p.status, 'checkout_url', p.checkout_url,
                                       'amount', p.amount, 'amount_refunded', p.amount_refunded,
                                       'failure_message', p.failure_message)
              FROM payments p WHERE p.reservation_id = r.id AND p.extension_id IS NULL
              ORDER BY p.created_at DESC, p.id DESC LIMIT 1) AS payment,
             (SELECT coalesce(sum(p.amount), 0) FROM payments p
              WHERE p.reservation_id = r.id AND p.status IN ('succeeded', 'refunded')) AS amount_captured,
             coalesce((SELECT json_agg(%s ORDER BY f.created_at)
                       FROM refunds f JOIN payments p ON p.id = f.payment_id WHERE p.reservation_id = r.id), '[]') AS refunds,
             coalesce((SELECT json_agg(json_build_object('id', x.id, 'hours', x.hours, 'start', lower(x.period),
                         'end', upper(x.period), 'status', x.status, 'hold_expires_at', x.hold_expires_at,
                         'amount', x.total_amount, 'currency', x.currency,
                         'checkout_url', (SELECT p.checkout_url FROM payments p WHERE p.extension_id = x.id
                                          AND p.status = 'pending' ORDER BY p.created_at DESC LIMIT 1))
                         ORDER BY x.created_at) FROM reservation_extensions x WHERE x.reservation_id = r.id), '[]')
               AS extensions
      FROM reservations r""".formatted(Refunds.AS_JSON);
  /** Releases lapsed holds: correctness comes from this statement, whoever runs it, however often. */
  private static final String EXPIRE_HOLDS = """
      WITH lapsed AS (
        UPDATE reservations SET status = 'expired', updated_at = now()
        WHERE status = 'pending_payment' AND hold_expires_at < now() RETURNING id),
      released AS (
        UPDATE reservation_gpus SET active = false WHERE reservation_id IN (SELECT id FROM lapsed) RETURNING 1),
      logged AS (
        INSERT INTO reservation_events (reservation_id, from_status, to_status, cause)
        SELECT id, 'pending_payment', 'expired', 'hold lapsed unpaid' FROM lapsed RETURNING reservation_id)
      SELECT r.id, r.account_id FROM reservations r WHERE r.id IN (SELECT reservation_id FROM logged)""";

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

  JsonObject json(Row row) {
    return ReservationJson.of(row, policy);
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
        .compose(v -> tx.preparedQuery(EVENT).execute(Tuple.of(r.id(), null, "pending_payment", "created")))
        .mapEmpty();
  }

  /** The reservation, if the caller may see it (its owner, or any operator). */
  Future<Optional<JsonObject>> find(SqlClient client, String id, String accountId, boolean operator) {
    return client.preparedQuery(SELECT + " WHERE r.id = $1 AND ($3 OR r.account_id = $2)")
        .execute(Tuple.of(id, accountId, operator))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(json(rows.iterator().next())));
  }

  Future<List<Row>> list(String accountId, boolean operator, String status, Optional<Page.Position> after, int limit) {
    String sql = SELECT + " WHERE ($2 OR r.account_id = $1) AND ($3::text IS NULL OR r.status = $3)"
        + " AND ($4::timestamptz IS NULL OR (r.created_at, r.id) < ($4, $5))"
        + " ORDER BY r.created_at DESC, r.id DESC LIMIT $6";
    return pool.preparedQuery(sql).execute(Tuple.of(accountId, operator, status,
            after.map(Page.Position::createdAt).orElse(null), after.map(Page.Position::id).orElse(null), limit + 1))
        .map(rows -> {
          List<Row> list = new ArrayList<>();
          rows.forEach(list::add);
          return list;
        });
  }

  /**
   * Moves a reservation between states if it is in {@code from}; false when it was not. A move
   * the {@link Lifecycle} does not allow is a bug and fails.
   */
  static Future<Boolean> transition(SqlClient tx, String id, String from, String to, String cause, boolean release) {
    if (!Lifecycle.allows(from, to)) {
      return Future.failedFuture(new IllegalStateException("illegal transition " + from + " -> " + to + " of " + id));
    }
    return tx.preparedQuery("UPDATE reservations SET status = $3, updated_at = now(),"
            + " hold_expires_at = CASE WHEN $3 = 'pending_payment' THEN hold_expires_at END"
            + " WHERE id = $1 AND status = $2 RETURNING id")
        .execute(Tuple.of(id, from, to))
        .compose(rows -> rows.size() == 0 ? Future.succeededFuture(false)
            : (release ? tx.preparedQuery("UPDATE reservation_gpus SET active = false WHERE reservation_id = $1")
                .execute(Tuple.of(id)).mapEmpty() : Future.<Void>succeededFuture())
                .compose(v -> tx.preparedQuery(EVENT).execute(Tuple.of(id, from, to, cause)))
                .map(true));
  }

  /**
   * What the renter has paid for this reservation (and its extensions) and not yet had back or
   * been promised back: captured payments minus every refund not failed. Read after locking the
   * reservation, so a payment committed meanwhile is seen.
   */
  static Future<Long> amountKept(SqlClient tx, String id) {
    return tx.preparedQuery("SELECT coalesce(sum(p.amount), 0) - coalesce((SELECT sum(f.amount) FROM refunds f"
            + " JOIN payments q ON q.id = f.payment_id WHERE q.reservation_id = $1 AND f.status <> 'failed'), 0)"
            + " FROM payments p WHERE p.reservation_id = $1 AND p.status IN ('succeeded', 'refunded')")
        .execute(Tuple.of(id)).map(rows -> rows.iterator().next().getLong(0));
  }

  /** Records something that happened to a reservation (a status change, or an extension). */
  static Future<Void> event(SqlClient tx, String id, String from, String to, String cause) {
    return tx.preparedQuery(EVENT).execute(Tuple.of(id, from, to, cause)).mapEmpty();
  }

  /** Expires every lapsed hold (reservations and extensions); returns (reservation id, account id) of each. */
  Future<List<String[]>> expireHolds() {
    return pool.withTransaction(tx -> tx.query(EXPIRE_HOLDS).execute()
        .compose(reservations -> tx.query(EXPIRE_EXTENSIONS).execute().map(extensions -> {
          List<String[]> expired = new ArrayList<>();
          reservations.forEach(row -> expired.add(new String[] {row.getString("id"), row.getString("account_id")}));
          extensions.forEach(row -> expired.add(new String[] {row.getString("id"), row.getString("account_id")}));
          return expired;
        })));
  }
}
