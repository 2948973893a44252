package io.gpurental.gateway.reservations;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The ready guarantee and downtime credits in PostgreSQL: when a reservation was due, its open
 * interruption, what it paid and kept, and the credits it earned ({@code reservation_credits}).
 * Every method runs in the caller's transaction.
 */
final class CreditRepository {
  /** SQL: credit row {@code c} as JSON, as {@link ReservationRows} reads it back. */
  static final String AS_JSON = "json_build_object('id', c.id, 'kind', c.kind, 'reason', c.reason,"
      + " 'from', c.from_at, 'to', c.to_at, 'hours', c.hours, 'amount', c.amount, 'currency', c.currency,"
      + " 'refund_ids', to_json(c.refund_ids), 'created_at', c.created_at)";
  /** Due: the window's start or its (latest) payment, whichever is later. */
  private static final String SET_DUE = """
      UPDATE reservations r SET due_at = greatest(lower(r.period), (SELECT max(e.at) FROM reservation_events e
        WHERE e.reservation_id = r.id AND e.to_status = 'confirmed'))
      WHERE r.id = ANY ($1) AND r.due_at IS NULL""";
  private static final String BASIS = """
      SELECT r.status, r.account_id, r.currency, lower(r.period) AS start_at, upper(r.period) AS end_at,
             coalesce(r.due_at, lower(r.period)) AS due_at, r.interrupted_since, r.interrupted_reason,
             (SELECT coalesce(sum(p.amount), 0) FROM reservation_payments_view p
              WHERE p.reservation_id = r.id AND p.status IN ('succeeded', 'refunded')) AS captured,
             (SELECT coalesce(sum(f.amount), 0) FROM reservation_refunds_view f
              WHERE f.reservation_id = r.id AND f.status <> 'failed') AS refunded
      FROM reservations r WHERE r.id = $1 FOR UPDATE OF r""";
  private static final String INSERT = """
      INSERT INTO reservation_credits (id, reservation_id, kind, reason, from_at, to_at, hours, amount, currency)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (reservation_id, kind, from_at) DO NOTHING RETURNING id""";
  private static final String ATTACH_REFUNDS = "UPDATE reservation_credits SET refund_ids = $2 WHERE id = $1";
  /** Since no earlier than the reservation first ran: what came before is not downtime of its own. */
  private static final String INTERRUPT = """
      UPDATE reservations r SET interrupted_reason = $3, updated_at = now(),
        interrupted_since = greatest($2, (SELECT min(e.at) FROM reservation_events e
                                          WHERE e.reservation_id = r.id AND e.to_status = 'running'))
      WHERE r.id = $1 AND r.status = 'running' AND r.interrupted_since IS NULL RETURNING r.interrupted_since""";
  private static final String CLEAR_INTERRUPTION = """
      UPDATE reservations SET interrupted_since = NULL, interrupted_reason = NULL, updated_at = now() WHERE id = $1""";
  /** Interruptions past the grace, or whose window is over while down. */
  private static final String OVERDUE = """
      SELECT id FROM reservations WHERE status = 'running' AND interrupted_since IS NOT NULL
        AND (interrupted_since < now() - $1::integer * interval '1 second' OR upper(period) <= now())""";
  /**
   * Running reservations (all, or the one asked for) whose open interruption disagrees with the
   * fleet's {@code instance_service_view}: down but not interrupted, or interrupted but up again
   * (a host neither, e.g. deactivated while offline, is left to the interruption's grace). Down
   * since no earlier than the end of its last downtime credit, so no time is credited twice (and
   * {@code INTERRUPT} starts no interruption before the reservation first ran).
   */
  private static final String SERVICE_DRIFT = """
      SELECT r.id, s.down, s.reason,
             greatest(s.down_since,
                      (SELECT max(c.to_at) FROM reservation_credits c
                       WHERE c.reservation_id = r.id AND c.kind = 'downtime')) AS down_since,
             s.up_since
      FROM reservations r JOIN instance_service_view s ON s.reservation_id = r.id
      WHERE r.status = 'running' AND ($1::text IS NULL OR r.id = $1)
        AND (s.down AND r.interrupted_since IS NULL OR s.up AND r.interrupted_since IS NOT NULL)
      ORDER BY r.id""";
  /** Windows over whose instance never ran. */
  private static final String NEVER_READY = """
      SELECT id FROM reservations WHERE status = 'provisioning' AND upper(period) <= now()""";

  private CreditRepository() {}

  /**
   * A reservation locked for a credit: its window, when it was due, its open interruption, what
   * its payments captured and what is left of it after refunds (pending ones are promised).
   */
  record Basis(ReservationStatus status, String accountId, String currency, Instant start, Instant end, Instant dueAt,
      Instant interruptedSince, String interruptedReason, long captured, long kept) {
    long totalHours() {
      return Duration.between(start, end).toHours();
    }
  }

  /** A credit to write: the hours of what happened between {@code from} and {@code to}. */
  record NewCredit(String id, String reservationId, String kind, String reason, Instant from, Instant to, int hours,
      long amount, String currency) {}

  static Future<Void> setDue(SqlClient tx, String[] ids) {
    return tx.preparedQuery(SET_DUE).execute(Tuple.of((Object) ids)).mapEmpty();
  }

  static Future<Optional<Basis>> lock(SqlClient tx, String id) {
    return tx.preparedQuery(BASIS).execute(Tuple.of(id)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row row = rows.iterator().next();
      long captured = row.getLong("captured");
      return Optional.of(new Basis(ReservationStatus.of(row.getString("status")), row.getString("account_id"),
          row.getString("currency"), instant(row.getOffsetDateTime("start_at")), instant(row.getOffsetDateTime("end_at")),
          instant(row.getOffsetDateTime("due_at")), instant(row.getOffsetDateTime("interrupted_since")),
          row.getString("interrupted_reason"), captured, Math.max(0, captured - row.getLong("refunded"))));
    });
  }

  /** Writes the credit unless one for the same event exists; its id when written. */
  static Future<Optional<String>> insert(SqlClient tx, NewCredit c) {
    return tx.preparedQuery(INSERT).execute(Tuple.from(new Object[] {c.id(), c.reservationId(), c.kind(), c.reason(),
        utc(c.from()), utc(c.to()), c.hours(), c.amount(), c.currency()}))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
  }

  static Future<Void> attachRefunds(SqlClient tx, String creditId, List<String> refundIds) {
    return tx.preparedQuery(ATTACH_REFUNDS).execute(Tuple.of(creditId, (Object) refundIds.toArray(new String[0]))).mapEmpty();
  }

  /**
   * Opens an interruption of a running reservation; answers when it counts from, empty when the
   * reservation is not running or already interrupted.
   */
  static Future<Optional<Instant>> interrupt(SqlClient tx, String id, Instant since, String reason) {
    return tx.preparedQuery(INTERRUPT).execute(Tuple.of(id, utc(since), reason)).map(rows -> rows.size() == 0
        ? Optional.empty() : Optional.of(rows.iterator().next().getOffsetDateTime(0).toInstant()));
  }

  static Future<Void> clearInterruption(SqlClient tx, String id) {
    return tx.preparedQuery(CLEAR_INTERRUPTION).execute(Tuple.of(id)).mapEmpty();
  }

  static Future<List<String>> overdueInterruptions(SqlClient client, Duration grace) {
    return ids(client.preparedQuery(OVERDUE).execute(Tuple.of((int) grace.toSeconds())));
  }

  /** A running reservation the fleet serves otherwise than its interruption says. */
  record Drift(String id, boolean down, String reason, Instant downSince, Instant upSince) {}

  /** {@code reservationId} null: every such reservation. */
  static Future<List<Drift>> serviceDrift(SqlClient client, String reservationId) {
    return client.preparedQuery(SERVICE_DRIFT).execute(Tuple.of(reservationId)).map(rows -> {
      List<Drift> drifts = new ArrayList<>();
      rows.forEach(row -> drifts.add(new Drift(row.getString("id"), row.getBoolean("down"), row.getString("reason"),
          instant(row.getOffsetDateTime("down_since")), instant(row.getOffsetDateTime("up_since")))));
      return drifts;
    });
  }

  static Future<List<String>> neverReady(SqlClient client) {
    return ids(client.preparedQuery(NEVER_READY).execute(Tuple.tuple()));
  }

  private static Future<List<String>> ids(Future<io.vertx.sqlclient.RowSet<Row>> query) {
    return query.map(rows -> {
      List<String> ids = new ArrayList<>();
      rows.forEach(row -> ids.add(row.getString(0)));
      return ids;
    });
  }

  private static Instant instant(OffsetDateTime time) {
    return time == null ? null : time.toInstant();
  }

  private static OffsetDateTime utc(Instant time) {
    return time.atOffset(ZoneOffset.UTC);
  }
}
