package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Maintenance windows in PostgreSQL, and the uptime the fleet publishes from the status history. */
final class MaintenanceRepository {
  /**
   * The lock that orders every change to a host's bookable time: maintenance windows here and
   * reservation creation (ReservationGpuRepository takes the same key), so a window and a
   * reservation saved at the same moment cannot both miss each other.
   */
  private static final String LOCK_CAPACITY = "SELECT pg_advisory_xact_lock(hashtextextended('host-capacity:' || $1, 0))";
  private static final String HOST_EXISTS = "SELECT 1 FROM hosts WHERE id = $1";
  private static final String COLUMNS = "id, host_id, starts_at, ends_at, drain, reason, created_by, created_at, cancelled_at";
  private static final String INSERT = "INSERT INTO maintenance_windows (id, host_id, starts_at, ends_at, drain, reason,"
      + " created_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING " + COLUMNS;
  /** Upcoming and current windows, soonest first. */
  private static final String IN_FORCE = "SELECT " + COLUMNS + " FROM maintenance_windows"
      + " WHERE host_id = $1 AND cancelled_at IS NULL AND ends_at > now() ORDER BY starts_at, id";
  private static final String FIND = "SELECT " + COLUMNS + " FROM maintenance_windows WHERE id = $1 AND host_id = $2"
      + " FOR UPDATE";
  private static final String CANCEL = "UPDATE maintenance_windows SET cancelled_at = now() WHERE id = $1"
      + " RETURNING " + COLUMNS;
  private static final String UPTIME = """
      SELECT host_id, uptime_24h, uptime_7d, uptime_30d, counted_seconds_30d, down_seconds_30d, maintenance_seconds_30d
      FROM host_uptime_view WHERE host_id = ANY ($1)""";

  private final Pool pool;

  MaintenanceRepository(Pool pool) {
    this.pool = pool;
  }

  Pool pool() {
    return pool;
  }

  /** Takes the host's capacity lock for the rest of {@code tx}; 404 when there is no such host. */
  static Future<Void> lockCapacity(SqlClient tx, String hostId) {
    return requireHost(tx, hostId).compose(v -> tx.preparedQuery(LOCK_CAPACITY).execute(Tuple.of(hostId))).mapEmpty();
  }

  static Future<Void> requireHost(SqlClient client, String hostId) {
    return client.preparedQuery(HOST_EXISTS).execute(Tuple.of(hostId)).compose(rows -> rows.size() == 0
        ? Future.failedFuture(new NotFound("There is no host " + hostId + ".")) : Future.succeededFuture());
  }

  static Future<Maintenance.Window> insert(SqlClient tx, String id, Maintenance.NewWindow window, String actor) {
    return tx.preparedQuery(INSERT).execute(Tuple.from(new Object[] {id, window.hostId(), window.startsAt(),
            window.endsAt(), window.drain(), window.reason(), actor}))
        .map(rows -> toWindow(rows.iterator().next()))
        .compose(saved -> AuditLog.append(tx, actor, "maintenance.scheduled", id, null, saved.toAudit()).map(saved));
  }

  static Future<Optional<Maintenance.Window>> find(SqlClient tx, String hostId, String id) {
    return tx.preparedQuery(FIND).execute(Tuple.of(id, hostId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(toWindow(rows.iterator().next())));
  }

  static Future<Maintenance.Window> cancel(SqlClient tx, Maintenance.Window window, String actor) {
    return tx.preparedQuery(CANCEL).execute(Tuple.of(window.id()))
        .map(rows -> toWindow(rows.iterator().next()))
        .compose(cancelled -> AuditLog.append(tx, actor, "maintenance.cancelled", window.id(), window.toAudit(),
            cancelled.toAudit()).map(cancelled));
  }

  Future<List<Maintenance.Window>> inForce(String hostId) {
    return pool.preparedQuery(IN_FORCE).execute(Tuple.of(hostId)).map(rows -> {
      List<Maintenance.Window> windows = new ArrayList<>();
      rows.forEach(row -> windows.add(toWindow(row)));
      return windows;
    });
  }

  Future<Map<String, Uptimes.Uptime>> uptimes(List<String> hostIds) {
    return pool.preparedQuery(UPTIME).execute(Tuple.of(hostIds.toArray(new String[0]))).map(rows -> {
      Map<String, Uptimes.Uptime> uptimes = new HashMap<>();
      rows.forEach(row -> uptimes.put(row.getString("host_id"), new Uptimes.Uptime(row.getDouble("uptime_24h"),
          row.getDouble("uptime_7d"), row.getDouble("uptime_30d"), row.getDouble("counted_seconds_30d"),
          row.getDouble("down_seconds_30d"), row.getDouble("maintenance_seconds_30d"))));
      return uptimes;
    });
  }

  private static Maintenance.Window toWindow(Row row) {
    return new Maintenance.Window(row.getString("id"), row.getString("host_id"), row.getOffsetDateTime("starts_at"),
        row.getOffsetDateTime("ends_at"), row.getBoolean("drain"), row.getString("reason"),
        row.getString("created_by"), row.getOffsetDateTime("created_at"), row.getOffsetDateTime("cancelled_at"));
  }
}
