package io.gpurental.bench;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.List;

/**
 * Thirty days of hourly measured energy for the bench hosts, written straight into the fleet's
 * roll-up table (as the roll-up job would have), so the economics report has a month to read.
 */
final class History {
  private static final String HOURS = """
      INSERT INTO host_telemetry_hourly (host_id, hour, samples, measured_samples, covered_seconds, power_w_avg,
                                         energy_wh, disk_free_gb_min, rtt_ms_avg)
      SELECT $1, h, 360, 360, 3600, 4200 + 300 * sin(extract(epoch FROM h) / 7200), 4200 + 300 * sin(extract(epoch FROM h) / 7200),
             5000, 2.5
      FROM generate_series(date_trunc('hour', now()) - interval '30 days', date_trunc('hour', now()) - interval '1 hour',
                           interval '1 hour') h
      ON CONFLICT DO NOTHING""";

  private History() {}

  static Future<Void> seed(Pool pool, List<Fixtures.Host> hosts) {
    return pool.preparedQuery(HOURS).executeBatch(hosts.stream().map(h -> Tuple.of(h.id())).toList()).mapEmpty();
  }
}
