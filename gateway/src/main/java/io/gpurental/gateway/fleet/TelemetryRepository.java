package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Heartbeat telemetry in PostgreSQL: raw samples, their hourly roll-ups and pruning. Reading
 * them for the operator is {@link TelemetryReads}.
 */
final class TelemetryRepository {
  private static final String INSERT_HOST_SAMPLE = """
      INSERT INTO host_samples (host_id, at, power_w, power_source, disk_free_gb, disk_health, load_1m, rtt_ms)
      VALUES ($1, now(), $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING""";
  private static final String INSERT_GPU_SAMPLE = """
      INSERT INTO gpu_samples (host_id, gpu_index, at, temperature_c, power_draw_w, utilization_pct, memory_used_mib,
                               ecc_uncorrected, remapped_rows_failure)
      VALUES ($1, $2, now(), $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING""";
  /**
   * Each sample's value holds until the next sample, for at most $2 seconds (a host silent longer
   * is offline: that time is unknown, not zero); the pieces are cut at hour boundaries. The hours
   * written are those completed (a minute ago, so no heartbeat of the hour is still committing)
   * after the last one written, and at most $1 seconds back; each is written whole from all of its
   * pieces, so a rerun writes the same figures.
   */
  private static final String PIECES = """
      WITH win AS (
        SELECT greatest(date_trunc('hour', now()) - make_interval(secs => $1),
                        (SELECT max(hour) + interval '1 hour' FROM %3$s)) AS start,
               date_trunc('hour', now() - interval '1 minute') AS stop),
      s AS (
        SELECT x.*, least(coalesce(lead(x.at) OVER w, x.at), x.at + make_interval(secs => $2)) AS until
        FROM %1$s x, win WHERE x.at >= win.start - make_interval(secs => $2)
        WINDOW w AS (PARTITION BY %2$s ORDER BY x.at)),
      pieces AS (
        SELECT s.*, h.hour, date_trunc('hour', s.at) = h.hour AS own,
               greatest(0, extract(epoch FROM least(s.until, h.hour + interval '1 hour') - greatest(s.at, h.hour)))
                 :: double precision AS secs
        FROM s CROSS JOIN LATERAL (VALUES (date_trunc('hour', s.at)), (date_trunc('hour', s.at) + interval '1 hour'))
          AS h (hour), win
        WHERE h.hour >= win.start AND h.hour < win.stop)
      """;
  private static final String ROLL_UP_HOSTS = PIECES.formatted("host_samples", "x.host_id", "host_telemetry_hourly")
      + """
      INSERT INTO host_telemetry_hourly (host_id, hour, samples, measured_samples, covered_seconds, power_w_avg,
                                         energy_wh, disk_free_gb_min, rtt_ms_avg)
      SELECT host_id, hour, count(*) FILTER (WHERE own), count(*) FILTER (WHERE own AND power_source = 'measured'),
             coalesce(sum(secs) FILTER (WHERE power_w IS NOT NULL), 0),
             sum(power_w * secs) / nullif(sum(secs) FILTER (WHERE power_w IS NOT NULL), 0),
             sum(power_w * secs) / 3600, min(disk_free_gb) FILTER (WHERE own), avg(rtt_ms) FILTER (WHERE own)
      FROM pieces GROUP BY host_id, hour HAVING count(*) FILTER (WHERE own) > 0
      ON CONFLICT (host_id, hour) DO UPDATE SET samples = EXCLUDED.samples,
        measured_samples = EXCLUDED.measured_samples, covered_seconds = EXCLUDED.covered_seconds,
        power_w_avg = EXCLUDED.power_w_avg, energy_wh = EXCLUDED.energy_wh,
        disk_free_gb_min = EXCLUDED.disk_free_gb_min, rtt_ms_avg = EXCLUDED.rtt_ms_avg""";
  private static final String ROLL_UP_GPUS = PIECES.formatted("gpu_samples", "x.host_id, x.gpu_index",
      "gpu_telemetry_hourly") + """
      INSERT INTO gpu_telemetry_hourly (host_id, gpu_index, hour, samples, covered_seconds, temperature_min_c,
                                        temperature_avg_c, temperature_max_c, power_draw_w_avg, energy_wh,
                                        utilization_avg_pct)
      SELECT host_id, gpu_index, hour, count(*) FILTER (WHERE own),
             coalesce(sum(secs) FILTER (WHERE power_draw_w IS NOT NULL), 0),
             min(temperature_c) FILTER (WHERE own), avg(temperature_c) FILTER (WHERE own),
             max(temperature_c) FILTER (WHERE own),
             sum(power_draw_w * secs) / nullif(sum(secs) FILTER (WHERE power_draw_w IS NOT NULL), 0),
             sum(power_draw_w * secs) / 3600, avg(utilization_pct) FILTER (WHERE own)
      FROM pieces GROUP BY host_id, gpu_index, hour HAVING count(*) FILTER (WHERE own) > 0
      ON CONFLICT (host_id, gpu_index, hour) DO UPDATE SET samples = EXCLUDED.samples,
        covered_seconds = EXCLUDED.covered_seconds, temperature_min_c = EXCLUDED.temperature_min_c,
        temperature_avg_c = EXCLUDED.temperature_avg_c, temperature_max_c = EXCLUDED.temperature_max_c,
        power_draw_w_avg = EXCLUDED.power_draw_w_avg, energy_wh = EXCLUDED.energy_wh,
        utilization_avg_pct = EXCLUDED.utilization_avg_pct""";
  private static final List<String> PRUNE_RAW = List.of(
      "DELETE FROM host_samples WHERE at < now() - make_interval(secs => $1)",
      "DELETE FROM gpu_samples WHERE at < now() - make_interval(secs => $1)");
  private static final List<String> PRUNE_HOURLY = List.of(
      "DELETE FROM host_telemetry_hourly WHERE hour < now() - make_interval(secs => $1)",
      "DELETE FROM gpu_telemetry_hourly WHERE hour < now() - make_interval(secs => $1)");

  private final Pool pool;

  TelemetryRepository(Pool pool) {
    this.pool = pool;
  }

  /**
   * Refuses a heartbeat that reports a GPU the host does not have (by index, among the host's
   * {@code known} ones), before anything of it is stored: phantom GPUs would otherwise fill the
   * samples and the hourly roll-ups.
   */
  static void checkGpus(Set<Integer> known, Telemetry t) {
    for (int i = 0; i < t.gpus().size(); i++) {
      int index = t.gpus().get(i).index();
      if (!known.contains(index)) {
        throw new Invalid("This host has no GPU " + index
            + "; a heartbeat reports only the GPUs the host enrolled with.",
            List.of(new Invalid.FieldError("#/telemetry/gpus/" + i + "/index",
                "not a GPU of this host")));
      }
    }
  }

  /** Stores the heartbeat's samples, timed by the database's clock (the transaction's start). */
  static Future<Void> insert(SqlClient tx, String hostId, Telemetry t) {
    Future<?> host = tx.preparedQuery(INSERT_HOST_SAMPLE).execute(Tuple.from(new Object[] {hostId, t.powerW(),
        t.powerSource(), t.diskFreeGb(), t.diskHealth(), t.load1m(), t.rttMs()}));
    if (t.gpus().isEmpty()) {
      return host.mapEmpty();
    }
    List<Tuple> gpus = t.gpus().stream().map(g -> Tuple.from(new Object[] {hostId, g.index(), g.temperatureC(),
        g.powerDrawW(), g.utilizationPct(), g.memoryUsedMib(), g.eccUncorrected(), g.remappedRowsFailure()})).toList();
    return host.compose(v -> tx.preparedQuery(INSERT_GPU_SAMPLE).executeBatch(gpus)).mapEmpty();
  }

  /**
   * Rolls the hours completed since the last run up (at most {@code lookback} back, so a job that
   * was down catches up), each sample holding for at most {@code maxGap}; then prunes what is
   * older than the retentions.
   */
  Future<Void> rollUpAndPrune(Duration lookback, Duration maxGap, Duration raw, Duration hourly) {
    return pool.withTransaction(tx -> {
      Tuple window = Tuple.of((double) lookback.toSeconds(), (double) maxGap.toSeconds());
      return tx.preparedQuery(ROLL_UP_HOSTS).execute(window)
          .compose(v -> tx.preparedQuery(ROLL_UP_GPUS).execute(window))
          .compose(v -> tx.preparedQuery(PRUNE_RAW.get(0)).execute(Tuple.of((double) raw.toSeconds())))
          .compose(v -> tx.preparedQuery(PRUNE_RAW.get(1)).execute(Tuple.of((double) raw.toSeconds())))
          .compose(v -> tx.preparedQuery(PRUNE_HOURLY.get(0)).execute(Tuple.of((double) hourly.toSeconds())))
          .compose(v -> tx.preparedQuery(PRUNE_HOURLY.get(1)).execute(Tuple.of((double) hourly.toSeconds())))
          .mapEmpty();
    });
  }
}
