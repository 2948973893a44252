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
  /** The first and last pull report of an image the renter chose themselves (no template): its pull is theirs. */
  private static final String OWN_IMAGE_PULL = """
      SELECT min(e.at) AS first, max(e.at) AS last FROM reservation_events e JOIN reservations r ON r.id = e.reservation_id
      WHERE e.reservation_id = $1 AND r.image_template_id IS NULL AND r.image_ref IS NOT NULL
        AND e.cause LIKE 'pulling the image%'""";
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

  /** The time from the first to the last pull report of the renter's own image; empty: no such pull. */
  record OwnImagePull(java.time.Instant first, java.time.Instant last) {
    java.time.Duration duration() {
      return java.time.Duration.between(first, last);
    }
  }

  static Future<java.util.Optional<OwnImagePull>> ownImagePull(SqlClient client, String reservationId) {
    return client.preparedQuery(OWN_IMAGE_PULL).execute(Tuple.of(reservationId)).map(rows -> {
      io.vertx.sqlclient.Row row = rows.iterator().next();
      return row.getOffsetDateTime("first") == null ? java.util.Optional.empty()
          : java.util.Optional.of(new OwnImagePull(row.getOffsetDateTime("first").toInstant(),
              row.getOffsetDateTime("last").toInstant()));
    });
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
