package io.gpurental.gateway.reservations;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Extensions in PostgreSQL: the reservation as an extension request reads it, the held extension
 * and its GPU hours after the end, and how it is confirmed, cancelled or lapses.
 */
final class ExtensionRepository {
  private static final String EXTENDABLE = "SELECT status, offer_id, gpu_count, upper(period) AS end_at,"
      + " upper(period) <= now() AS ended, EXISTS (SELECT 1 FROM reservation_extensions x WHERE x.reservation_id = r.id"
      + " AND x.status = 'pending_payment') AS pending,"
      + " (extract(epoch FROM upper(period) - lower(period)) / 3600)::integer AS hours,"
      + " r.total_amount + coalesce((SELECT sum(x.total_amount) FROM reservation_extensions x"
      + " WHERE x.reservation_id = r.id AND x.status = 'confirmed'), 0) AS total"
      + " FROM reservations r WHERE id = $1 AND account_id = $2";
  private static final String LOCK_RESERVATION =
      "SELECT status, upper(period) AS end_at, host_id FROM reservations WHERE id = $1 FOR UPDATE";
  private static final String INSERT = "INSERT INTO reservation_extensions (id, reservation_id, hours, period, status,"
      + " hold_expires_at, quote_id, price, total_amount, currency, payment_method)"
      + " VALUES ($1, $2, $3, tstzrange($4, $5), 'pending_payment', $6, $7, $8, $9, $10, $11)";
  private static final String INSERT_GPUS = "INSERT INTO reservation_gpus (reservation_id, gpu_id, period, extension_id)"
      + " SELECT DISTINCT $1, gpu_id, tstzrange($2, $3), $4 FROM reservation_gpus"
      + " WHERE reservation_id = $1 AND active";
  private static final String LOCK = "SELECT status, hours, upper(period) AS ends,"
      + " upper(period) > now() AS window_open FROM reservation_extensions WHERE id = $1 FOR UPDATE";
  private static final String CONFIRM = "UPDATE reservation_extensions SET status = 'confirmed', hold_expires_at = NULL"
      + " WHERE id = $1";
  private static final String MOVE_END = "UPDATE reservations SET period = tstzrange(lower(period), $2),"
      + " updated_at = now() WHERE id = $1";
  private static final String CANCEL_UNPAID =
      "UPDATE reservation_extensions SET status = 'cancelled', hold_expires_at = NULL"
      + " WHERE id = $1 AND status = 'pending_payment' RETURNING id";
  private static final String RELEASE_GPUS = "UPDATE reservation_gpus SET active = false WHERE extension_id = $1";
  private static final String CANCEL_PENDING_OF = "UPDATE reservation_extensions SET status = 'cancelled',"
      + " hold_expires_at = NULL WHERE reservation_id = $1 AND status = 'pending_payment'";
  /** Extensions still unpaid when their window ended: cancelled with it, their GPUs released. */
  private static final String CANCEL_UNPAID_OF_ENDED = """
      WITH unpaid AS (
        UPDATE reservation_extensions SET status = 'cancelled', hold_expires_at = NULL
        WHERE reservation_id = ANY($1) AND status = 'pending_payment' RETURNING id),
      released AS (
        UPDATE reservation_gpus SET active = false WHERE extension_id IN (SELECT id FROM unpaid))
      SELECT id FROM unpaid""";
  /** Lapsed unpaid extensions: their GPU hours after the end are released. */
  private static final String EXPIRE_LAPSED = """
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

  private ExtensionRepository() {}

  /** The reservation an extension is asked for: whether it can be extended, and from when. */
  /** {@code hours} and {@code total}: the window and its price so far, extensions paid included. */
  record Extendable(String status, String offerId, int gpuCount, OffsetDateTime end, boolean ended, boolean pending,
      int hours, long total) {}

  /** The reservation to extend, locked: its status and end as they are now. */
  record LockedReservation(String status, OffsetDateTime end, String hostId) {}

  /** A held extension, locked for its payment's outcome. */
  record Locked(String status, int hours, OffsetDateTime ends, boolean windowOpen) {}

  /** A new extension held until paid: its id, hours, period after {@code end}, hold and price. */
  record NewExtension(String id, String reservationId, int hours, OffsetDateTime end, OffsetDateTime until,
      OffsetDateTime holdExpiresAt, String quoteId, JsonObject price, long total, String currency, String method) {}

  static Future<Optional<Extendable>> extendable(SqlClient client, String id, String accountId) {
    return client.preparedQuery(EXTENDABLE).execute(Tuple.of(id, accountId)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row row = rows.iterator().next();
      return Optional.of(new Extendable(row.getString("status"), row.getString("offer_id"), row.getInteger("gpu_count"),
          row.getOffsetDateTime("end_at"), row.getBoolean("ended"), row.getBoolean("pending"), row.getInteger("hours"),
          row.getLong("total")));
    });
  }

  static Future<LockedReservation> lockReservation(SqlConnection tx, String id) {
    return tx.preparedQuery(LOCK_RESERVATION).execute(Tuple.of(id)).map(rows -> {
      Row row = rows.iterator().next();
      return new LockedReservation(row.getString("status"), row.getOffsetDateTime("end_at"), row.getString("host_id"));
    });
  }

  /** Holds the extension and the same GPUs for its hours (the exclusion constraint refuses taken ones). */
  static Future<Void> insert(SqlConnection tx, NewExtension x) {
    return tx.preparedQuery(INSERT)
        .execute(Tuple.from(new Object[] {x.id(), x.reservationId(), x.hours(), x.end(), x.until(), x.holdExpiresAt(),
            x.quoteId(), x.price(), x.total(), x.currency(), x.method()}))
        .compose(v -> tx.preparedQuery(INSERT_GPUS).execute(Tuple.of(x.reservationId(), x.end(), x.until(), x.id())))
        .mapEmpty();
  }

  static Future<Locked> lock(SqlConnection tx, String extensionId) {
    return tx.preparedQuery(LOCK).execute(Tuple.of(extensionId)).map(rows -> {
      Row row = rows.iterator().next();
      return new Locked(row.getString("status"), row.getInteger("hours"), row.getOffsetDateTime("ends"),
          row.getBoolean("window_open"));
    });
  }

  /** The extension is paid: confirmed, and the reservation now ends at {@code ends}. */
  static Future<Void> confirm(SqlConnection tx, String reservationId, String extensionId, OffsetDateTime ends) {
    return tx.preparedQuery(CONFIRM).execute(Tuple.of(extensionId))
        .compose(v -> tx.preparedQuery(MOVE_END).execute(Tuple.of(reservationId, ends)))
        .mapEmpty();
  }

  /** An extension whose payment failed for good: cancelled, its GPU hours released, if it was still held. */
  static Future<Void> cancelUnpaid(SqlConnection tx, String extensionId) {
    return tx.preparedQuery(CANCEL_UNPAID).execute(Tuple.of(extensionId))
        .compose(rows -> rows.size() == 0 ? Future.succeededFuture()
            : tx.preparedQuery(RELEASE_GPUS).execute(Tuple.of(extensionId)).mapEmpty());
  }

  /** Cancels the reservation's held extensions (its GPUs, theirs included, are released with it). */
  static Future<Void> cancelPendingOf(SqlConnection tx, String reservationId) {
    return tx.preparedQuery(CANCEL_PENDING_OF).execute(Tuple.of(reservationId)).mapEmpty();
  }

  /** Cancels the extensions still unpaid of these ended reservations, releasing their GPUs; their ids. */
  static Future<List<String>> cancelUnpaidOfEnded(SqlConnection tx, String[] reservationIds) {
    return tx.preparedQuery(CANCEL_UNPAID_OF_ENDED).execute(Tuple.of(reservationIds)).map(rows -> {
      List<String> ids = new ArrayList<>();
      rows.forEach(row -> ids.add(row.getString(0)));
      return ids;
    });
  }

  /** Expires every lapsed extension hold; returns (reservation id, account id) of each reservation touched. */
  static Future<List<String[]>> expireLapsed(SqlConnection tx) {
    return tx.query(EXPIRE_LAPSED).execute().map(rows -> {
      List<String[]> expired = new ArrayList<>();
      rows.forEach(row -> expired.add(new String[] {row.getString("id"), row.getString("account_id")}));
      return expired;
    });
  }
}
