package io.gpurental.gateway.reservations;

import io.gpurental.gateway.fleet.PublishedPort;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.Locale;

/**
 * What the host reports about a reservation's instance besides its status: the image pull's
 * progress (an event per tenth of the image, or per GiB when its size is not known, so a long
 * pull is visible without flooding the history) and the ports it published.
 */
final class InstanceProgressRepository {
  private static final long GIB = 1L << 30;
  /** Only while provisioning, and once per step: a repeated report of the same step adds nothing. */
  private static final String PULL_EVENT = """
      INSERT INTO reservation_events (reservation_id, from_status, to_status, cause)
      SELECT r.id, r.status, r.status, $2 FROM reservations r
      WHERE r.id = $1 AND r.status = 'provisioning'
        AND NOT EXISTS (SELECT 1 FROM reservation_events e WHERE e.reservation_id = r.id AND e.cause LIKE $3)
      RETURNING id""";
  private static final String SET_PORTS = "UPDATE reservations SET published_ports = $2 WHERE id = $1";

  private InstanceProgressRepository() {}

  /** Records the pull's step as an event (once); answers whether one was added. */
  static Future<Boolean> pulling(SqlClient client, String reservationId, long bytesDone, Long bytesTotal) {
    String step = bytesTotal != null && bytesTotal > 0
        ? "pulling the image " + Math.min(100, bytesDone * 10 / bytesTotal * 10) + "%"
        : "pulling the image, " + bytesDone / GIB + " GiB";
    String cause = step + " (" + size(bytesDone) + (bytesTotal == null ? "" : " of " + size(bytesTotal)) + ")";
    return client.preparedQuery(PULL_EVENT).execute(Tuple.of(reservationId, cause, like(step) + " (%"))
        .map(rows -> rows.rowCount() > 0);
  }

  static Future<Void> setPorts(SqlClient tx, String reservationId, List<PublishedPort> ports) {
    JsonArray json = new JsonArray();
    ports.forEach(p -> json.add(new JsonObject().put("container_port", p.containerPort()).put("host_port", p.hostPort())));
    return tx.preparedQuery(SET_PORTS).execute(Tuple.of(reservationId, json)).mapEmpty();
  }

  private static String size(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1_000_000.0);
  }

  private static String like(String text) {
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }
}
