package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * The fleet's port for each host's uptime (published to SQL readers as {@code host_uptime_view}):
 * uptime = 1 − down time ÷ (period − planned maintenance), over the last 24 h, 7 d and 30 d, where
 * down time is time {@code offline} outside maintenance, and only time the host was in service
 * counts (not before it was first activated, not while deactivated).
 */
public final class Uptimes {
  private final MaintenanceRepository repository;

  Uptimes(MaintenanceRepository repository) {
    this.repository = repository;
  }

  /** One host's figures; an uptime is null when the period holds no counted time. */
  public record Uptime(Double last24h, Double last7d, Double last30d, double countedSeconds30d, double downSeconds30d,
      double maintenanceSeconds30d) {
    /** The API's {@code uptime} object. */
    public JsonObject toJson() {
      return new JsonObject().put("24h", last24h).put("7d", last7d).put("30d", last30d)
          .put("maintenance_hours_30d", hours(maintenanceSeconds30d)).put("down_hours_30d", hours(downSeconds30d));
    }

    private static double hours(double seconds) {
      return Math.round(seconds / 36.0) / 100.0;
    }
  }

  /** The uptime of each host asked for (a host without history is missing). */
  public Future<Map<String, Uptime>> of(List<String> hostIds) {
    return repository.uptimes(hostIds);
  }
}
