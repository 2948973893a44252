package io.gpurental.gateway.operator;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the Hosts page shows per host besides the fleet's own facts: time-to-ready over 30 days
 * (the fleet's {@code time_to_ready_view}) and the alerts' open incidents about the host (its own
 * and those of its GPUs and reservations, which name it as {@code details.host_id}), and whether
 * the operator entered its costs.
 */
final class HostFiguresRepository {
  private static final String FIGURES = """
      SELECT h.id, t.samples, t.p50_seconds, t.p95_seconds,
             (SELECT count(*) FROM alert_incidents i WHERE i.status = 'open'
                AND (i.target = h.id OR i.details->>'host_id' = h.id)) AS open_incidents,
             EXISTS (SELECT 1 FROM host_cost_periods c WHERE c.host_id = h.id) AS costs_entered
      FROM unnest($1::text[]) AS h(id) LEFT JOIN time_to_ready_view t ON t.host_id = h.id""";

  private final Pool pool;

  HostFiguresRepository(Pool pool) {
    this.pool = pool;
  }

  /** One host's figures: time-to-ready null while nothing ran on it in 30 days. */
  record Figures(JsonObject timeToReady, long openIncidents, boolean costsEntered) {}

  Future<Map<String, Figures>> of(List<String> hostIds) {
    return pool.preparedQuery(FIGURES).execute(Tuple.of((Object) hostIds.toArray(new String[0]))).map(rows -> {
      Map<String, Figures> figures = new HashMap<>();
      rows.forEach(row -> figures.put(row.getString("id"), new Figures(timeToReady(row), row.getLong("open_incidents"),
          row.getBoolean("costs_entered"))));
      return figures;
    });
  }

  private static JsonObject timeToReady(Row row) {
    Integer samples = row.getInteger("samples");
    return samples == null || samples == 0 ? null : new JsonObject().put("p50_seconds", row.getInteger("p50_seconds"))
        .put("p95_seconds", row.getInteger("p95_seconds")).put("samples", samples);
  }
}
