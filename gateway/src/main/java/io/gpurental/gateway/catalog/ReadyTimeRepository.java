package io.gpurental.gateway.catalog;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Time-to-ready as the fleet publishes it (30 days), per host and fleet-wide, for the catalog. */
final class ReadyTimeRepository {
  private static final String PER_HOST = """
      SELECT host_id, samples, p50_seconds, p95_seconds FROM time_to_ready_view WHERE host_id = ANY ($1)""";
  private static final String PER_TEMPLATE = """
      SELECT host_id, template_id, cached, samples, p50_seconds, p95_seconds FROM template_time_to_ready_view
      WHERE host_id = ANY ($1)""";
  private static final String FLEET = "SELECT samples, p50_seconds, p95_seconds FROM fleet_time_to_ready_view";

  private final Pool pool;

  ReadyTimeRepository(Pool pool) {
    this.pool = pool;
  }

  /** p50/p95 in seconds over {@code samples} instances; hosts without any have none. */
  record TimeToReady(int p50Seconds, int p95Seconds, int samples) {
    JsonObject toJson() {
      return new JsonObject().put("p50_seconds", p50Seconds).put("p95_seconds", p95Seconds).put("samples", samples);
    }

    /** The API shape: null without samples. */
    static JsonObject json(Optional<TimeToReady> figure) {
      return figure.map(TimeToReady::toJson).orElse(null);
    }
  }

  Future<Map<String, TimeToReady>> perHost(String[] hostIds) {
    return pool.preparedQuery(PER_HOST).execute(Tuple.of((Object) hostIds)).map(rows -> {
      Map<String, TimeToReady> figures = new HashMap<>();
      rows.forEach(row -> figures.put(row.getString("host_id"), of(row)));
      return figures;
    });
  }

  /** A host's figures for one template, for starts that found it cached and starts that pulled it. */
  record TemplateReady(Optional<TimeToReady> cached, Optional<TimeToReady> uncached) {
    JsonObject toJson() {
      return new JsonObject().put("cached", TimeToReady.json(cached)).put("uncached", TimeToReady.json(uncached));
    }

    static final TemplateReady NONE = new TemplateReady(Optional.empty(), Optional.empty());

    TemplateReady with(boolean isCached, TimeToReady figure) {
      return isCached ? new TemplateReady(Optional.of(figure), uncached) : new TemplateReady(cached, Optional.of(figure));
    }
  }

  /** Per host, per template id: the split figures (templates without samples are absent). */
  Future<Map<String, Map<String, TemplateReady>>> perTemplate(String[] hostIds) {
    return pool.preparedQuery(PER_TEMPLATE).execute(Tuple.of((Object) hostIds)).map(rows -> {
      Map<String, Map<String, TemplateReady>> figures = new HashMap<>();
      rows.forEach(row -> {
        Map<String, TemplateReady> host = figures.computeIfAbsent(row.getString("host_id"), h -> new HashMap<>());
        String template = row.getString("template_id");
        host.put(template, host.getOrDefault(template, TemplateReady.NONE).with(row.getBoolean("cached"), of(row)));
      });
      return figures;
    });
  }

  Future<Optional<TimeToReady>> fleet() {
    return pool.query(FLEET).execute().map(rows -> {
      Row row = rows.iterator().next();
      return row.getInteger("samples") == 0 ? Optional.empty() : Optional.of(of(row));
    });
  }

  private static TimeToReady of(Row row) {
    return new TimeToReady(row.getInteger("p50_seconds"), row.getInteger("p95_seconds"), row.getInteger("samples"));
  }
}
