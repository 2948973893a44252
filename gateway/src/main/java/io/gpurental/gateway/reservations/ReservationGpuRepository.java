package io.gpurental.gateway.reservations;

import io.gpurental.gateway.fleet.Maintenance;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which GPUs a reservation can have: those free on a host for a window, the next start when
 * enough are, and released ones taken back when nobody took them meanwhile. The exclusion
 * constraint on {@code reservation_gpus} stays the one guard against double booking.
 */
final class ReservationGpuRepository {
  private static final String FREE_GPUS = """
      SELECT g.gpu_id FROM host_gpus_view g
      WHERE g.host_id = $1 AND g.host_status = 'active' AND g.health = 'healthy' AND NOT EXISTS (
        SELECT 1 FROM reservation_gpus r WHERE r.gpu_id = g.gpu_id AND r.active AND r.period && tstzrange($2, $3))
      ORDER BY g.idx LIMIT $4""";
  /** The first start, hour by hour after $2 (up to 14 days), when $3 GPUs are free for $4 hours. */
  private static final String NEXT_FREE_START = """
      SELECT $2::timestamptz + k * interval '1 hour' AS start FROM generate_series(1, 336) AS k
      WHERE (SELECT count(*) FROM host_gpus_view g
             WHERE g.host_id = $1 AND g.host_status = 'active' AND g.health = 'healthy' AND NOT EXISTS (
               SELECT 1 FROM reservation_gpus r WHERE r.gpu_id = g.gpu_id AND r.active
                 AND r.period && tstzrange($2::timestamptz + k * interval '1 hour',
                                           $2::timestamptz + (k + $4::integer) * interval '1 hour'))) >= $3
      ORDER BY k LIMIT 1""";
  /**
   * The host's capacity lock, held to the end of the transaction; the fleet takes the same key
   * when it saves a maintenance window, so a window and a reservation cannot miss each other.
   */
  private static final String LOCK_CAPACITY = "SELECT pg_advisory_xact_lock(hashtextextended('host-capacity:' || $1, 0))";
  /** The first maintenance window (published by the fleet) that keeps [$2, $3) free of new reservations. */
  private static final String MAINTENANCE = """
      SELECT id, starts_at, ends_at, drain FROM maintenance_windows_view
      WHERE host_id = $1 AND blocked && tstzrange($2, $3) ORDER BY starts_at, id LIMIT 1""";
  /** Live reservations on the host holding GPUs at some time in [$2, $3). */
  private static final String OVERLAPPING = """
      SELECT r.id, r.status, lower(r.period) AS start_at, upper(r.period) AS end_at, r.gpu_count FROM reservations r
      WHERE r.host_id = $1 AND EXISTS (SELECT 1 FROM reservation_gpus g
                                       WHERE g.reservation_id = r.id AND g.active AND g.period && tstzrange($2, $3))
      ORDER BY lower(r.period), r.id""";
  private static final String RECLAIMABLE = "SELECT bool_and(NOT EXISTS (SELECT 1 FROM reservation_gpus o"
      + " WHERE o.gpu_id = rg.gpu_id AND o.active AND o.period && rg.period)) FROM reservation_gpus rg WHERE ";
  private static final String RECLAIM = "UPDATE reservation_gpus SET active = true WHERE ";
  private static final String OWN_GPUS = "reservation_id = $1 AND extension_id IS NULL";
  private static final String EXTENSION_GPUS = "extension_id = $1";

  private ReservationGpuRepository() {}

  static Future<List<String>> freeGpus(SqlClient tx, String hostId, OffsetDateTime start, OffsetDateTime end, int count) {
    return tx.preparedQuery(FREE_GPUS).execute(Tuple.of(hostId, start, end, count)).map(rows -> {
      List<String> ids = new ArrayList<>();
      rows.forEach(row -> ids.add(row.getString(0)));
      return ids;
    });
  }

  /** Takes the host's capacity lock (see {@link #LOCK_CAPACITY}) for the rest of {@code tx}. */
  static Future<Void> lockCapacity(SqlClient tx, String hostId) {
    return tx.preparedQuery(LOCK_CAPACITY).execute(Tuple.of(hostId)).mapEmpty();
  }

  /** A maintenance window (from the fleet's view) that keeps a time free of new reservations. */
  record PlannedMaintenance(String id, OffsetDateTime startsAt, OffsetDateTime endsAt, boolean drain) {}

  /** The maintenance window that refuses a new reservation on the host for [start, end), if any. */
  static Future<Optional<PlannedMaintenance>> maintenance(SqlClient tx, String hostId, OffsetDateTime start,
      OffsetDateTime end) {
    return tx.preparedQuery(MAINTENANCE).execute(Tuple.of(hostId, start, end)).map(rows -> rows.size() == 0
        ? Optional.empty()
        : Optional.of(rows.iterator().next()).map(row -> new PlannedMaintenance(row.getString("id"),
            row.getOffsetDateTime("starts_at"), row.getOffsetDateTime("ends_at"), row.getBoolean("drain"))));
  }

  /** The live reservations on the host that hold GPUs at some time in [start, end). */
  static Future<List<Maintenance.Overlap>> overlapping(SqlClient tx, String hostId, OffsetDateTime start,
      OffsetDateTime end) {
    return tx.preparedQuery(OVERLAPPING).execute(Tuple.of(hostId, start, end)).map(rows -> {
      List<Maintenance.Overlap> found = new ArrayList<>();
      rows.forEach(row -> found.add(new Maintenance.Overlap(row.getString("id"), row.getString("status"),
          row.getOffsetDateTime("start_at"), row.getOffsetDateTime("end_at"), row.getInteger("gpu_count"))));
      return found;
    });
  }

  static Future<Optional<OffsetDateTime>> nextFreeStart(SqlClient client, String hostId, OffsetDateTime start,
      int count, int hours) {
    return client.preparedQuery(NEXT_FREE_START).execute(Tuple.of(hostId, start, count, hours))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getOffsetDateTime(0)));
  }

  /**
   * Re-activates the reservation's own released GPU rows if nobody took them meanwhile (else
   * leaves them released). A booking racing this one makes the exclusion constraint fail the whole
   * transaction; the payment's report is then retried (webhook redelivery, reconciler) and finds
   * the GPUs taken.
   */
  static Future<Boolean> reclaimGpus(SqlConnection tx, String id) {
    return reclaim(tx, OWN_GPUS, id);
  }

  /** {@link #reclaimGpus} for an extension's GPU hours. */
  static Future<Boolean> reclaimExtensionGpus(SqlConnection tx, String extensionId) {
    return reclaim(tx, EXTENSION_GPUS, extensionId);
  }

  private static Future<Boolean> reclaim(SqlConnection tx, String where, String id) {
    return tx.preparedQuery(RECLAIMABLE + where).execute(Tuple.of(id))
        .compose(rows -> !Boolean.TRUE.equals(rows.iterator().next().getBoolean(0)) ? Future.succeededFuture(false)
            : tx.preparedQuery(RECLAIM + where).execute(Tuple.of(id)).map(true));
  }
}
