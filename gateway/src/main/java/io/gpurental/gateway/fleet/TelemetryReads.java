package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Telemetry as the operator reads it: each host's latest sample, and series for charts. */
public final class TelemetryReads {
  /** The most points one series answers; a longer range is averaged into wider buckets. */
  public static final int MAX_POINTS = 720;
  private static final String LATEST_HOSTS = """
      SELECT s.* FROM unnest($1::text[]) AS h (id)
      CROSS JOIN LATERAL (SELECT * FROM host_samples WHERE host_id = h.id ORDER BY at DESC LIMIT 1) s""";
  // the GPUs of exactly the host samples read first: a heartbeat committed in between is not mixed in
  private static final String LATEST_GPUS = """
      SELECT g.* FROM unnest($1::text[], $2::timestamptz[]) AS l (id, at)
      JOIN gpu_samples g ON g.host_id = l.id AND g.at = l.at ORDER BY g.host_id, g.gpu_index""";
  private static final String RAW_HOST = """
      SELECT date_bin(make_interval(secs => $4), at, $2) AS at, avg(power_w) AS power_w, avg(disk_free_gb) AS disk_free_gb,
             avg(rtt_ms) AS rtt_ms
      FROM host_samples WHERE host_id = $1 AND at >= $2 AND at < $3 GROUP BY 1 ORDER BY 1""";
  private static final String RAW_GPUS = """
      SELECT gpu_index, date_bin(make_interval(secs => $4), at, $2) AS at, avg(temperature_c) AS temperature_c,
             max(temperature_c) AS temperature_max_c, avg(power_draw_w) AS power_draw_w,
             avg(utilization_pct) AS utilization_pct
      FROM gpu_samples WHERE host_id = $1 AND at >= $2 AND at < $3 GROUP BY 1, 2 ORDER BY 1, 2""";
  private static final String HOURLY_HOST = """
      SELECT date_bin(make_interval(secs => $4), hour, $2) AS at, sum(power_w_avg * covered_seconds)
               / nullif(sum(covered_seconds) FILTER (WHERE power_w_avg IS NOT NULL), 0) AS power_w,
             min(disk_free_gb_min) AS disk_free_gb, avg(rtt_ms_avg) AS rtt_ms
      FROM host_telemetry_hourly WHERE host_id = $1 AND hour >= $2 AND hour < $3 GROUP BY 1 ORDER BY 1""";
  private static final String HOURLY_GPUS = """
      SELECT gpu_index, date_bin(make_interval(secs => $4), hour, $2) AS at,
             sum(temperature_avg_c * samples) / nullif(sum(samples) FILTER (WHERE temperature_avg_c IS NOT NULL), 0)
               AS temperature_c,
             max(temperature_max_c) AS temperature_max_c,
             sum(power_draw_w_avg * covered_seconds)
               / nullif(sum(covered_seconds) FILTER (WHERE power_draw_w_avg IS NOT NULL), 0) AS power_draw_w,
             sum(utilization_avg_pct * samples)
               / nullif(sum(samples) FILTER (WHERE utilization_avg_pct IS NOT NULL), 0) AS utilization_pct
      FROM gpu_telemetry_hourly WHERE host_id = $1 AND hour >= $2 AND hour < $3 GROUP BY 1, 2 ORDER BY 1, 2""";

  private final Pool pool;
  private final Duration rawRetention;

  TelemetryReads(Pool pool, Duration rawRetention) {
    this.pool = pool;
    this.rawRetention = rawRetention;
  }

  /** A host's sample. */
  public record HostSample(Instant at, Double powerW, String powerSource, Double diskFreeGb, String diskHealth,
      Double load1m, Double rttMs) {}

  /** A GPU's sample (for a series: an average over its bucket, with the bucket's highest temperature). */
  public record GpuSample(int index, Instant at, Double temperatureC, Double temperatureMaxC, Double powerDrawW,
      Double utilizationPct, Double memoryUsedMib, Long eccUncorrected, Boolean remappedRowsFailure) {}

  /** The latest heartbeat of each host: the host sample and its GPUs' samples. */
  public record Latest(HostSample host, List<GpuSample> gpus) {}

  /** Series for charts: {@code resolution} is "raw" (samples, ≤ the raw retention) or "hour" (roll-ups). */
  public record Series(String resolution, Duration bucket, List<HostSample> host, List<GpuSample> gpus) {}

  public Future<Map<String, Latest>> latest(List<String> hostIds) {
    return pool.preparedQuery(LATEST_HOSTS).execute(Tuple.of(hostIds.toArray(String[]::new))).compose(hosts -> {
      Map<String, Latest> latest = new HashMap<>();
      List<String> ids = new ArrayList<>();
      List<OffsetDateTime> ats = new ArrayList<>();
      hosts.forEach(row -> {
        latest.put(row.getString("host_id"), new Latest(hostSample(row), new ArrayList<>()));
        ids.add(row.getString("host_id"));
        ats.add(row.getOffsetDateTime("at"));
      });
      Tuple samples = Tuple.tuple().addArrayOfString(ids.toArray(String[]::new))
          .addArrayOfOffsetDateTime(ats.toArray(OffsetDateTime[]::new));
      return pool.preparedQuery(LATEST_GPUS).execute(samples).map(gpus -> {
        gpus.forEach(row -> latest.get(row.getString("host_id")).gpus().add(gpuSample(row)));
        return latest;
      });
    });
  }

  /** The host's telemetry in [from, to): raw samples when the raw retention covers it, else roll-ups. */
  public Future<Series> series(String hostId, Instant from, Instant to) {
    boolean raw = !from.isBefore(Instant.now().minus(rawRetention).minusSeconds(60));
    Duration span = Duration.between(from, to);
    long step = raw ? 1 : 3600;
    long bucket = Math.max(step, (span.toSeconds() + MAX_POINTS - 1) / MAX_POINTS);
    bucket = (bucket + step - 1) / step * step;
    Tuple args = Tuple.of(hostId, from.atOffset(ZoneOffset.UTC), to.atOffset(ZoneOffset.UTC), (double) bucket);
    Duration width = Duration.ofSeconds(bucket);
    return pool.preparedQuery(raw ? RAW_HOST : HOURLY_HOST).execute(args)
        .compose(hosts -> pool.preparedQuery(raw ? RAW_GPUS : HOURLY_GPUS).execute(args).map(gpus -> {
          List<HostSample> host = new ArrayList<>();
          hosts.forEach(row -> host.add(new HostSample(at(row), row.getDouble("power_w"), null,
              row.getDouble("disk_free_gb"), null, null, row.getDouble("rtt_ms"))));
          List<GpuSample> points = new ArrayList<>();
          gpus.forEach(row -> points.add(new GpuSample(row.getInteger("gpu_index"), at(row),
              row.getDouble("temperature_c"), row.getDouble("temperature_max_c"), row.getDouble("power_draw_w"),
              row.getDouble("utilization_pct"), null, null, null)));
          return new Series(raw ? "raw" : "hour", width, host, points);
        }));
  }

  private static HostSample hostSample(Row row) {
    return new HostSample(at(row), row.getDouble("power_w"), row.getString("power_source"),
        row.getDouble("disk_free_gb"), row.getString("disk_health"), row.getDouble("load_1m"), row.getDouble("rtt_ms"));
  }

  private static GpuSample gpuSample(Row row) {
    return new GpuSample(row.getInteger("gpu_index"), at(row), row.getDouble("temperature_c"),
        row.getDouble("temperature_c"), row.getDouble("power_draw_w"), row.getDouble("utilization_pct"),
        row.getDouble("memory_used_mib"), row.getLong("ecc_uncorrected"), row.getBoolean("remapped_rows_failure"));
  }

  private static Instant at(Row row) {
    OffsetDateTime at = row.getOffsetDateTime("at");
    return at.toInstant();
  }
}
