package io.gpurental.bench.baseline;

/**
 * The SQL the baseline runs: the same statements the gateway runs for each measured route (copied
 * from its repositories; keep them in step when those change), so the ratio measures the
 * gateway's layers, not a different query.
 */
final class BareSql {
  /** The /db floor: one offer by its primary key. */
  static final String ONE_ROW = "SELECT id, host_id, cpu_cores_per_gpu, ram_gb_per_gpu, nvme_gb_per_gpu FROM offers WHERE id = $1";
  /** catalog.CatalogRepository.OFFERS: $1 start, $2 end, $3..$9 filters (all null for an open search). */
  static final String OFFERS = """
      WITH busy AS (SELECT DISTINCT gpu_id FROM booked_gpus_view WHERE period && tstzrange($1, $2)),
      host_gpus AS (SELECT g.host_id, min(g.model) AS model, min(g.vram_gb) AS vram_gb, count(*) :: integer AS total,
                           (count(*) FILTER (WHERE busy.gpu_id IS NULL AND g.health = 'healthy')) :: integer AS free
                    FROM fleet_gpus_view g LEFT JOIN busy ON busy.gpu_id = g.id GROUP BY g.host_id)
      SELECT o.id, h.id AS host_id, h.name AS host_name, h.status AS host_status,
             h.site_name AS site, h.region, h.country,
             g.model AS gpu_model, m.architecture, g.vram_gb, g.total AS gpus_total,
             CASE WHEN mw.id IS NULL THEN g.free ELSE 0 END AS gpus_free,
             o.gpu_counts, h.cpu_model, h.cpu_cores, h.ram_gb, h.nvme_gb, h.net_gbps, h.interconnect,
             o.cpu_cores_per_gpu, o.ram_gb_per_gpu, o.nvme_gb_per_gpu,
             p.amount_per_gpu_hour AS price_per_gpu_hour, p.currency,
             m.hyperscaler_price_minor, m.specialized_price_minor,
             mw.id AS maintenance_id, mw.starts_at AS maintenance_starts_at, mw.ends_at AS maintenance_ends_at,
             mw.drain AS maintenance_drain,
             u.uptime_24h, u.uptime_7d, u.uptime_30d, u.counted_seconds_30d, u.down_seconds_30d,
             u.maintenance_seconds_30d
      FROM offers o
      JOIN fleet_hosts_view h ON h.id = o.host_id
      JOIN host_gpus g ON g.host_id = h.id
      JOIN gpu_models m ON m.name = g.model
      JOIN offer_prices_view p ON p.offer_id = o.id
      LEFT JOIN LATERAL (SELECT id, starts_at, ends_at, drain FROM maintenance_windows_view
                         WHERE host_id = h.id AND blocked && tstzrange($1, $2) ORDER BY starts_at, id LIMIT 1) mw ON true
      LEFT JOIN host_uptime_view u ON u.host_id = h.id
      WHERE (($9::text IS NULL AND o.closed_at IS NULL AND h.status IN ('active', 'maintenance')) OR o.id = $9)
        AND ($3::text IS NULL OR lower(g.model) = lower($3))
        AND ($4::integer IS NULL OR g.vram_gb >= $4)
        AND ($5::text IS NULL OR h.region = $5)
        AND ($6::text IS NULL OR h.site_id = $6 OR lower(h.site_name) = lower($6))
        AND ($7::text IS NULL OR lower(h.interconnect) = lower($7))
        AND ($8::bigint IS NULL OR p.amount_per_gpu_hour <= $8)""";
  /** The price a quote is made from: the offer's rate in force (offer_prices_view) and its free GPUs. */
  static final String QUOTE_OFFER = OFFERS;
  /** fleet.AgentApi's credential check: the host of a live credential. */
  static final String HOST_OF_CREDENTIAL = """
      SELECT host_id FROM host_credentials WHERE secret_hash = $1 AND revoked_at IS NULL""";
  /** fleet.HostRepository.HEARTBEAT. */
  static final String HEARTBEAT = """
      INSERT INTO host_heartbeats (host_id, last_at, agent_version, telemetry) VALUES ($1, now(), $2, $3)
      ON CONFLICT (host_id) DO UPDATE SET last_at = now(), agent_version = EXCLUDED.agent_version,
        telemetry = EXCLUDED.telemetry""";
  /** fleet.TelemetryRepository.INSERT_HOST_SAMPLE. */
  static final String HOST_SAMPLE = """
      INSERT INTO host_samples (host_id, at, power_w, power_source, disk_free_gb, disk_health, load_1m, rtt_ms)
      VALUES ($1, now(), $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING""";
  /** fleet.TelemetryRepository.INSERT_GPU_SAMPLE. */
  static final String GPU_SAMPLE = """
      INSERT INTO gpu_samples (host_id, gpu_index, at, temperature_c, power_draw_w, utilization_pct, memory_used_mib,
                               ecc_uncorrected, remapped_rows_failure)
      VALUES ($1, $2, now(), $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING""";

  private BareSql() {}
}
