package io.gpurental.gateway.operator.alerts;

import io.gpurental.gateway.platform.Ids;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SQL of incidents: what each rule's condition holds for now, opening and resolving
 * incidents (the partial unique index on open ones decides, so two evaluations never open two),
 * and queuing the one notification per transition and channel.
 */
final class IncidentRepository {
  private static final String OPEN = """
      INSERT INTO alert_incidents (id, rule, target, status, details)
      SELECT c.id, $1, c.target, 'open', c.details::jsonb
      FROM unnest($2::text[], $3::text[], $4::text[]) AS c(id, target, details)
      ON CONFLICT (rule, target) WHERE status = 'open'
        DO UPDATE SET last_seen_at = now(), details = EXCLUDED.details
      RETURNING id, (xmax = 0) AS opened""";
  private static final String RESOLVE = """
      UPDATE alert_incidents SET status = 'resolved', resolved_at = now()
      WHERE rule = $1 AND status = 'open' AND target <> ALL($2::text[])
      RETURNING id""";
  private static final String QUEUE = """
      INSERT INTO alert_deliveries (incident_id, transition, channel)
      SELECT i, $2, ch FROM unnest($1::text[]) AS i, unnest($3::text[]) AS ch
      ON CONFLICT (incident_id, transition, channel) DO NOTHING""";
  private final Pool pool;

  IncidentRepository(Pool pool) {
    this.pool = pool;
  }

  Pool pool() {
    return pool;
  }

  /** Whether the rule's source exists (a view or column another feature publishes). */
  Future<Boolean> available(Rule rule) {
    return rule.available().map(sql -> pool.query(sql).execute().map(rows -> rows.iterator().next().getBoolean(0)))
        .orElse(Future.succeededFuture(true));
  }

  /**
   * One condition per target (the first row's details), because one statement may not open the same
   * incident twice; in target order, so two evaluations at once lock rows in the same order.
   */
  Future<List<Condition>> conditions(Rule rule) {
    return pool.preparedQuery(rule.conditions()).execute(Tuple.tuple(rule.arguments())).map(rows -> {
      Map<String, Condition> found = new TreeMap<>();
      rows.forEach(row -> found.putIfAbsent(row.getString(0), new Condition(row.getString(0), row.getString(1))));
      return List.copyOf(found.values());
    });
  }

  /** Opens an incident for each condition without an open one (refreshing the others); the ids opened. */
  static Future<List<String>> open(SqlConnection tx, String rule, List<Condition> conditions) {
    if (conditions.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    String[] ids = conditions.stream().map(c -> Ids.newId("inc")).toArray(String[]::new);
    String[] targets = conditions.stream().map(Condition::target).toArray(String[]::new);
    String[] details = conditions.stream().map(Condition::detailsJson).toArray(String[]::new);
    return tx.preparedQuery(OPEN).execute(Tuple.tuple().addValue(rule).addValue(ids).addValue(targets).addValue(details)).map(rows -> {
      List<String> opened = new ArrayList<>();
      for (Row row : rows) {
        if (row.getBoolean("opened")) {
          opened.add(row.getString("id"));
        }
      }
      return opened;
    });
  }

  /** Resolves the rule's open incidents whose target is no longer among {@code holding}; the ids resolved. */
  static Future<List<String>> resolve(SqlConnection tx, String rule, List<String> holding) {
    return tx.preparedQuery(RESOLVE).execute(Tuple.tuple().addValue(rule).addValue(holding.toArray(String[]::new))).map(rows -> {
      List<String> resolved = new ArrayList<>();
      rows.forEach(row -> resolved.add(row.getString("id")));
      return resolved;
    });
  }

  /** Queues one delivery per incident and channel for a transition ({@code opened} or {@code resolved}). */
  static Future<Void> queue(SqlConnection tx, List<String> incidentIds, String transition, List<String> channels) {
    if (incidentIds.isEmpty() || channels.isEmpty()) {
      return Future.succeededFuture();
    }
    return tx.preparedQuery(QUEUE).execute(Tuple.tuple().addValue(incidentIds.toArray(String[]::new))
        .addValue(transition).addValue(channels.toArray(String[]::new))).mapEmpty();
  }
}
