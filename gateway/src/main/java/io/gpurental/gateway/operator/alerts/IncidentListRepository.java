package io.gpurental.gateway.operator.alerts;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reading incidents for the operator: open ones first, then newest first, keyset-paginated on
 * (open, opened_at, id), each with its deliveries and their attempts.
 */
final class IncidentListRepository {
  private static final String RANK = "CASE WHEN status = 'open' THEN 1 ELSE 0 END";
  private static final String PAGE = """
      SELECT id, rule, target, status, opened_at, last_seen_at, resolved_at, details::text
      FROM alert_incidents
      WHERE ($1::text IS NULL OR status = $1)
        AND ($2::integer IS NULL OR (%1$s, opened_at, id) < ($2, $3, $4))
      ORDER BY %1$s DESC, opened_at DESC, id DESC
      LIMIT $5""".formatted(RANK);
  private static final String DELIVERIES = """
      SELECT id, incident_id, transition, channel, status, attempts, next_attempt_at, last_status_code, last_error,
             delivered_at
      FROM alert_deliveries WHERE incident_id = ANY($1::text[]) ORDER BY id""";
  private static final String ATTEMPTS = """
      SELECT a.delivery_id, a.attempt, a.at, a.status_code, a.error, a.next_attempt_at
      FROM alert_delivery_attempts a JOIN alert_deliveries d ON d.id = a.delivery_id
      WHERE d.incident_id = ANY($1::text[]) ORDER BY a.delivery_id, a.attempt""";
  private final Pool pool;

  IncidentListRepository(Pool pool) {
    this.pool = pool;
  }

  /** The position after which a page starts. */
  record After(int rank, OffsetDateTime openedAt, String id) {}

  Future<List<Incident>> page(Optional<String> status, Optional<After> after, int limit) {
    Tuple args = Tuple.of(status.orElse(null), after.map(After::rank).orElse(null),
        after.map(After::openedAt).orElse(null), after.map(After::id).orElse(null), limit);
    return pool.preparedQuery(PAGE).execute(args).compose(rows -> {
      List<Incident> incidents = new ArrayList<>();
      rows.forEach(row -> incidents.add(new Incident(row.getString("id"), row.getString("rule"),
          row.getString("target"), row.getString("status"), row.getOffsetDateTime("opened_at"),
          row.getOffsetDateTime("last_seen_at"), row.getOffsetDateTime("resolved_at"), row.getString("details"),
          List.of())));
      return withDeliveries(incidents);
    });
  }

  private Future<List<Incident>> withDeliveries(List<Incident> incidents) {
    if (incidents.isEmpty()) {
      return Future.succeededFuture(incidents);
    }
    Tuple ids = Tuple.tuple().addValue(incidents.stream().map(Incident::id).toArray(String[]::new));
    // deliveries first: an attempt is logged in the transaction that moves its delivery, so a
    // delivery read as delivered always finds its last attempt in the log read after it
    return pool.preparedQuery(DELIVERIES).execute(ids).compose(rows -> pool.preparedQuery(ATTEMPTS).execute(ids)
        .map(attemptRows -> {
          Map<Long, List<Incident.Attempt>> log = new LinkedHashMap<>();
          attemptRows.forEach(row -> log.computeIfAbsent(row.getLong("delivery_id"), k -> new ArrayList<>())
              .add(new Incident.Attempt(row.getInteger("attempt"), row.getOffsetDateTime("at"),
                  row.getInteger("status_code"), row.getString("error"), row.getOffsetDateTime("next_attempt_at"))));
          Map<String, List<Incident.Delivery>> byIncident = new LinkedHashMap<>();
          rows.forEach(row -> byIncident.computeIfAbsent(row.getString("incident_id"), k -> new ArrayList<>())
              .add(delivery(row, log.getOrDefault(row.getLong("id"), List.of()))));
          return incidents.stream().map(i -> i.withDeliveries(byIncident.getOrDefault(i.id(), List.of()))).toList();
        }));
  }

  private static Incident.Delivery delivery(Row row, List<Incident.Attempt> log) {
    return new Incident.Delivery(row.getLong("id"), row.getString("transition"), row.getString("channel"),
        row.getString("status"), row.getInteger("attempts"), row.getOffsetDateTime("next_attempt_at"),
        row.getInteger("last_status_code"), row.getString("last_error"), row.getOffsetDateTime("delivered_at"), log);
  }
}
