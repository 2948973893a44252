package io.gpurental.gateway.reservations;

import io.gpurental.gateway.payments.Refunds;
import io.gpurental.gateway.platform.Page;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reservations, their GPUs and their event history in PostgreSQL: booking, reading, locking and
 * moving them through the state machine. Beside it: {@link ExtensionRepository} (extensions),
 * {@link ReservationGpuRepository} (free and reclaimed GPUs), {@link PaymentViewRepository} (what
 * payments publishes), {@link SshKeyRepository} (saved keys) and {@link IdempotencyKeys}.
 */
public final class ReservationRepository {
  /**
   * The reservation, one row per GPU (under the exclusion constraint) and its first event, in one
   * statement: each statement of a hold is a round trip, and under load the round trips are the
   * hold's time (docs/benchmarks.md, "Hold and heartbeat profile").
   */
  private static final String INSERT = """
      WITH r AS (
        INSERT INTO reservations (id, account_id, offer_id, host_id, gpu_count, period, status, hold_expires_at,
          quote_id, price, total_amount, currency, ssh_public_key, ssh_fingerprint, payment_method,
          image_template_id, image_ref, image_ports)
        VALUES ($1, $2, $3, $4, $5, tstzrange($6, $7), 'pending_payment', $8, $9, $10, $11, $12, $13, $14, $15,
          $16, $17, $18)
        RETURNING id, period),
      g AS (
        INSERT INTO reservation_gpus (reservation_id, gpu_id, period, extension_id)
        SELECT r.id, unnest($19::text[]), r.period, NULL FROM r),
      e AS (
        INSERT INTO reservation_events (reservation_id, from_status, to_status, cause)
        SELECT r.id, NULL, 'pending_payment', 'created' FROM r)
      SELECT id FROM r""";
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
               AS extensions,
             coalesce((SELECT json_agg(%s ORDER BY c.created_at, c.id) FROM reservation_credits c
                       WHERE c.reservation_id = r.id), '[]') AS credits
      FROM reservations r""".formatted(Refunds.AS_JSON, CreditRepository.AS_JSON);
  private static final String FIND = SELECT + " WHERE r.id = $1 AND ($3 OR r.account_id = $2)";
  private static final String LIST = SELECT + " WHERE ($2 OR r.account_id = $1) AND ($3::text IS NULL OR r.status = $3)"
      + " AND ($4::timestamptz IS NULL OR (r.created_at, r.id) < ($4, $5))"
      + " ORDER BY r.created_at DESC, r.id DESC LIMIT $6";
  /** Lapsed holds, locked; each is expired through the state machine. */
  private static final String LAPSED_HOLDS = """
      SELECT id, status, account_id FROM reservations
      WHERE status IN ('pending_payment', 'awaiting_approval') AND hold_expires_at < now() FOR UPDATE SKIP LOCKED""";

  /**
   * Paid reservations whose window is over, locked. Not those still provisioning: they never
   * became ready, and the ready guarantee fails and refunds them (a window that ends after its
   * pass and before this one is its next pass's), never completes them.
   */
  private static final String ENDED = """
      SELECT id, status, account_id FROM reservations
      WHERE status IN ('confirmed', 'running') AND upper(period) <= now() FOR UPDATE SKIP LOCKED""";
  /** Confirmed reservations whose window has started, locked. */
  private static final String STARTED = """
      SELECT id, status, account_id FROM reservations
      WHERE status = 'confirmed' AND lower(period) <= now() AND upper(period) > now() FOR UPDATE SKIP LOCKED""";
  /** Instances to start: those just provisioning ($1), and those stuck there longer than $2 seconds. */
  private static final String LAUNCHES = """
      SELECT r.id, r.host_id, r.ssh_public_key, upper(r.period) AS ends_at, coalesce(r.due_at, now()) AS due_at,
             r.image_ref, r.image_ports, r.gpu_count, o.cpu_cores_per_gpu, o.ram_gb_per_gpu, o.nvme_gb_per_gpu,
             array(SELECT DISTINCT g.idx FROM reservation_gpus rg JOIN host_gpus_view g ON g.gpu_id = rg.gpu_id
                   WHERE rg.reservation_id = r.id AND rg.active ORDER BY g.idx) AS gpu_indexes
      FROM reservations r LEFT JOIN offer_hosts_view o ON o.offer_id = r.offer_id WHERE r.status = 'provisioning'
        AND (r.id = ANY($1) OR r.updated_at < now() - $2::integer * interval '1 second')""";
  private static final String LOCK = "SELECT status, account_id, currency, lower(period) AS start_at,"
      + " upper(period) AS end_at, (price ->> 'cancellation_fee_bps') :: integer AS fee_bps"
      + " FROM reservations WHERE id = $1 FOR UPDATE";
  private static final String LOCK_VISIBLE = "SELECT r.status, r.account_id, r.currency, lower(r.period) AS start_at,"
      + " upper(r.period) AS end_at, (r.price ->> 'cancellation_fee_bps') :: integer AS fee_bps"
      + " FROM reservations r WHERE r.id = $1 AND ($3 OR r.account_id = $2) FOR UPDATE";
  private static final String LOCK_ROW = "SELECT id FROM reservations WHERE id = $1 FOR UPDATE";
  private static final String LOCK_FOR_PAYMENT = "SELECT status, account_id, upper(period) > now() AS window_open"
      + " FROM reservations WHERE id = $1 FOR UPDATE";
  /** A status move, the GPUs released if $5, and its event: one statement (one round trip). */
  private static final String TRANSITION = """
      WITH moved AS (
        UPDATE reservations SET status = $3, updated_at = now(),
          hold_expires_at = CASE WHEN $3 IN ('pending_payment', 'awaiting_approval') THEN hold_expires_at END
        WHERE id = $1 AND status = $2 RETURNING id),
      released AS (
        UPDATE reservation_gpus SET active = false WHERE $5::boolean AND reservation_id IN (SELECT id FROM moved)),
      event AS (
        INSERT INTO reservation_events (reservation_id, from_status, to_status, cause)
        SELECT id, $2, $3, $4 FROM moved)
      SELECT id FROM moved""";
  private static final String SET_SSH_ACCESS = "UPDATE reservations SET ssh_endpoint = $2,"
      + " ssh_host_key_fingerprint = $3, ssh_known_hosts = $4 WHERE id = $1";
  private static final String ACCOUNT_OF = "SELECT account_id FROM reservations WHERE id = $1";
  private static final String HOST_OF = "SELECT host_id FROM offer_hosts_view WHERE offer_id = $1";

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

  /** The host an offer's GPUs are on. */
  Future<String> hostOf(String offerId) {
    return pool.preparedQuery(HOST_OF).execute(Tuple.of(offerId)).map(rows -> rows.iterator().next().getString(0));
  }

  static Future<Void> insert(SqlClient tx, NewReservation r) {
    Tuple params = Tuple.from(new Object[] {r.id(), r.accountId(), r.offerId(), r.hostId(), r.gpuCount(), r.start(),
        r.end(), r.holdExpiresAt(), r.quoteId(), r.price(), r.total(), r.currency(), r.ssh().text(),
        r.ssh().fingerprint(), r.paymentMethod(), r.image() == null ? null : r.image().templateId(),
        r.image() == null ? null : r.image().ref(),
        (r.image() == null ? List.<Integer>of() : r.image().ports()).toArray(new Integer[0]),
        r.gpuIds().toArray(new String[0])});
    return tx.preparedQuery(INSERT).execute(params).mapEmpty();
  }

  /** The reservation, if the caller may see it (its owner, or any operator). */
  Future<Optional<Reservation>> find(SqlClient client, String id, String accountId, boolean operator) {
    return client.preparedQuery(FIND).execute(Tuple.of(id, accountId, operator))
        .map(rows -> rows.size() == 0 ? Optional.empty()
            : Optional.of(ReservationRows.reservation(rows.iterator().next())));
  }

  /** {@link #find}, in its API shape. */
  Future<Optional<JsonObject>> findJson(SqlClient client, String id, String accountId, boolean operator) {
    return find(client, id, accountId, operator).map(found -> found.map(this::json));
  }

  Future<List<Reservation>> list(String accountId, boolean operator, String status, Optional<Page.Position> after, int limit) {
    return pool.preparedQuery(LIST).execute(Tuple.of(accountId, operator, status,
            after.map(Page.Position::createdAt).orElse(null), after.map(Page.Position::id).orElse(null), limit + 1))
        .map(rows -> {
          List<Reservation> list = new ArrayList<>();
          rows.forEach(row -> list.add(ReservationRows.reservation(row)));
          return list;
        });
  }

  /**
   * A reservation locked for a decision about its money: its status, owner, currency, window and
   * the cancellation fee its quote carried (null when booked before quotes carried one).
   */
  record Locked(ReservationStatus status, String accountId, String currency, Instant start, Instant end,
      Integer feeBps) {}

  /** Locks the reservation; empty when there is none. */
  static Future<Optional<Locked>> lock(SqlConnection tx, String id) {
    return tx.preparedQuery(LOCK).execute(Tuple.of(id)).map(ReservationRepository::locked);
  }

  /** Locks the reservation if the caller may see it (its owner, or any operator). */
  static Future<Optional<Locked>> lockVisible(SqlConnection tx, String id, String accountId, boolean operator) {
    return tx.preparedQuery(LOCK_VISIBLE).execute(Tuple.of(id, accountId, operator)).map(ReservationRepository::locked);
  }

  private static Optional<Locked> locked(RowSet<Row> rows) {
    if (rows.size() == 0) {
      return Optional.empty();
    }
    Row row = rows.iterator().next();
    return Optional.of(new Locked(ReservationStatus.of(row.getString("status")), row.getString("account_id"),
        row.getString("currency"), row.getOffsetDateTime("start_at").toInstant(),
        row.getOffsetDateTime("end_at").toInstant(), row.getInteger("fee_bps")));
  }

  /** Locks the reservation's row, nothing read. */
  static Future<Void> lockRow(SqlConnection tx, String id) {
    return tx.preparedQuery(LOCK_ROW).execute(Tuple.of(id)).mapEmpty();
  }

  /** A reservation locked for its payment's outcome: whether its window is still open. */
  record PaymentLock(ReservationStatus status, String accountId, boolean windowOpen) {}

  static Future<PaymentLock> lockForPayment(SqlConnection tx, String id) {
    return tx.preparedQuery(LOCK_FOR_PAYMENT).execute(Tuple.of(id)).map(rows -> {
      Row row = rows.iterator().next();
      return new PaymentLock(ReservationStatus.of(row.getString("status")), row.getString("account_id"),
          row.getBoolean("window_open"));
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
    return tx.preparedQuery(TRANSITION).execute(Tuple.of(id, from.id(), to.id(), cause, release))
        .map(rows -> rows.size() > 0);
  }

  /** Records something that happened to a reservation (a status change, or an extension). */
  static Future<Void> event(SqlClient tx, String id, String from, String to, String cause) {
    return tx.preparedQuery(EVENT).execute(Tuple.of(id, from, to, cause)).mapEmpty();
  }

  /** Where and how the renter logs in: user@host:port, and the host key to trust. */
  static Future<Void> setSshAccess(SqlClient tx, String id, String endpoint, String hostKeyFingerprint,
      String knownHosts) {
    return tx.preparedQuery(SET_SSH_ACCESS).execute(Tuple.of(id, endpoint, hostKeyFingerprint, knownHosts)).mapEmpty();
  }

  Future<String> accountOf(String id) {
    return pool.preparedQuery(ACCOUNT_OF).execute(Tuple.of(id)).map(rows -> rows.iterator().next().getString(0));
  }

  /**
   * Instances to ask hosts for: those of {@code ids}, and those provisioning for longer than
   * {@code stuckSeconds}. Rows of {@code id, host_id, ssh_public_key, gpu_indexes}.
   */
  Future<RowSet<Row>> launches(String[] ids, int stuckSeconds) {
    return pool.preparedQuery(LAUNCHES).execute(Tuple.of(ids, stuckSeconds));
  }

  /** Expires every lapsed hold (reservations and extensions); returns (reservation id, account id) of each. */
  Future<List<String[]>> expireHolds() {
    return pool.withTransaction(tx -> transitionAll(tx, LAPSED_HOLDS, ReservationStatus.EXPIRED,
            "hold lapsed unpaid", true)
        .compose(reservations -> ExtensionRepository.expireLapsed(tx).map(extensions -> {
          List<String[]> expired = new ArrayList<>();
          reservations.forEach(moved -> expired.add(new String[] {moved.id(), moved.accountId()}));
          expired.addAll(extensions);
          return expired;
        })));
  }

  /** A reservation a batch moved: from which status, and whose it is. */
  record Moved(String id, String accountId, ReservationStatus from) {}

  /** Moves each paid reservation whose window is over to {@code to}. */
  static Future<List<Moved>> moveEndedWindows(SqlConnection tx, ReservationStatus to, String cause) {
    return transitionAll(tx, ENDED, to, cause, false);
  }

  /** Moves each confirmed reservation whose window has started to {@code to}. */
  static Future<List<Moved>> moveStartedWindows(SqlConnection tx, ReservationStatus to, String cause) {
    return transitionAll(tx, STARTED, to, cause, false);
  }

  /**
   * Moves each reservation {@code due} selects ({@code id, status, account_id}, locked) to
   * {@code to} through the state machine, one after another in the caller's transaction.
   */
  private static Future<List<Moved>> transitionAll(SqlConnection tx, String due, ReservationStatus to, String cause,
      boolean release) {
    return tx.preparedQuery(due).execute(Tuple.tuple()).compose(rows -> {
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
