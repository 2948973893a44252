package io.gpurental.gateway.catalog;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads offers, their availability (from reservations' {@code booked_gpus_view} and the fleet's
 * {@code maintenance_windows_view}), their hosts' uptime ({@code host_uptime_view}) and prices
 * ({@code offer_prices_view}), or for a search the precomputed {@code offer_figures} of both.
 */
public final class CatalogRepository {
  /**
   * Every offer matching the SQL-side filters, with the GPUs of its host that no active booking
   * holds at any time in [$1, $2) and that are healthy (degraded and faulty GPUs are not bookable).
   * Parameters: $1 start, $2 end, $3 gpu model, $4 min VRAM, $5 region, $6 site (id or name),
   * $7 interconnect, $8 max base price, $9 offer id, $10 least VRAM per GPU, $11 least VRAM in all
   * (a workload's need, {@link VramNeed}).
   * <p>The window's bookings are read once through V24's index; every host's GPUs are counted
   * against them in one pass and hash-joined with the offers that pass the filters. A search takes
   * model, VRAM, price and uptime from the offer's precomputed row ({@code offer_figures}, kept by
   * {@link OfferFigures}) while the row holds, and asks the views ({@code offer_prices_view},
   * {@code host_uptime_view}) for the offers whose row does not. The GPUs counted now decide model
   * and VRAM in the end. One offer by id (offer page, quote) is {@link #OFFER}, which always reads the
   * views; the gateway no longer sets $9 here (bench/sql/measure-catalog.py still compares with it).
   */
  private static final String OFFERS = """
      -- the GPUs booked in the window, read once, through V24's index on the booked periods (the
      -- expression is that index's own: the same range); for one offer only its host's GPUs,
      -- probed through the exclusion constraint's index (gpu_id, period)
      WITH busy AS MATERIALIZED (
        SELECT gpu_id FROM booked_gpus_view
        WHERE $9::text IS NULL AND tstzrange(lower(period), upper(period)) && tstzrange($1, $2)
        UNION ALL
        SELECT b.gpu_id FROM offers one JOIN fleet_gpus_view g ON g.host_id = one.host_id
        JOIN booked_gpus_view b ON b.gpu_id = g.id WHERE one.id = $9 AND b.period && tstzrange($1, $2)),
      -- the newest price row, and when a price last took effect: a precomputed price holds only
      -- if it was computed after both (a scheduled price reached makes every row not hold until
      -- the next refresh)
      latest AS MATERIALIZED (
        SELECT (SELECT max(id) FROM prices) AS price_id,
               (SELECT max(effective_from) FROM prices WHERE effective_from <= now()) AS effective_from
        WHERE $9::text IS NULL),
      -- the offers that pass the filters: a search takes model, VRAM, price and uptime from the
      -- offer's precomputed row (V24) while it holds, else (and for one offer asked for by id:
      -- offer page, quote) from the views
      listed AS MATERIALIZED (
        SELECT o.id, o.host_id, o.gpu_counts, o.cpu_cores_per_gpu, o.ram_gb_per_gpu, o.nvme_gb_per_gpu, o.isolation,
               h.name AS host_name, h.status AS host_status, h.site_name, h.region, h.country, h.cpu_model,
               h.cpu_cores, h.ram_gb, h.nvme_gb, h.net_gbps, h.interconnect,
               p.amount_per_gpu_hour, p.currency,
               u.uptime_24h, u.uptime_7d, u.uptime_30d, u.counted_seconds_30d, u.down_seconds_30d,
               u.maintenance_seconds_30d
        FROM offers o
        JOIN fleet_hosts_view h ON h.id = o.host_id
        LEFT JOIN offer_figures f ON f.offer_id = o.id AND $9::text IS NULL
        CROSS JOIN LATERAL (
          SELECT coalesce(f.prices_seen >= (SELECT price_id FROM latest) AND f.site_id = h.site_id
                            AND f.price_at >= (SELECT effective_from FROM latest), false) AS price_holds,
                 coalesce(f.uptime_at > now() - interval '1 hour', false) AS uptime_holds) fresh
        -- the one rule for the price that applies now (V14): own price, else model-and-site default
        -- (OFFSET 0 keeps the views from being flattened into joins over every offer and host: each
        -- is asked for the one offer or host at hand, and only when its precomputed row does not hold)
        CROSS JOIN LATERAL (
          SELECT f.amount_per_gpu_hour, f.currency WHERE fresh.price_holds AND f.amount_per_gpu_hour IS NOT NULL
          UNION ALL
          SELECT v.amount_per_gpu_hour, v.currency
          FROM (SELECT * FROM offer_prices_view WHERE offer_id = o.id OFFSET 0) v WHERE NOT fresh.price_holds) p
        LEFT JOIN LATERAL (
          SELECT f.uptime_24h, f.uptime_7d, f.uptime_30d, f.counted_seconds_30d, f.down_seconds_30d,
                 f.maintenance_seconds_30d WHERE fresh.uptime_holds
          UNION ALL
          SELECT v.uptime_24h, v.uptime_7d, v.uptime_30d, v.counted_seconds_30d, v.down_seconds_30d,
                 v.maintenance_seconds_30d
          FROM (SELECT * FROM host_uptime_view WHERE host_id = h.id OFFSET 0) v WHERE NOT fresh.uptime_holds) u ON true
        -- a search lists only open offers of hosts that can serve now (enrolling, pending, offline and
        -- deactivated hosts are not in the catalog); one offer asked for by id is shown as it is
        WHERE (($9::text IS NULL AND o.closed_at IS NULL AND h.status IN ('active', 'maintenance')) OR o.id = $9)
          AND ($3::text IS NULL OR lower(coalesce(f.gpu_model, h.gpu_model)) = lower($3))
          AND ($4::integer IS NULL OR coalesce(f.vram_gb, h.vram_gb) >= $4)
          AND ($5::text IS NULL OR h.region = $5)
          AND ($6::text IS NULL OR h.site_id = $6 OR lower(h.site_name) = lower($6))
          AND ($7::text IS NULL OR lower(h.interconnect) = lower($7))
          AND ($8::bigint IS NULL OR p.amount_per_gpu_hour <= $8)
          -- a workload search: only hosts whose GPUs could hold the workload's VRAM, per GPU ($10)
          -- and in all at the offer's largest count ($11); this only narrows, Java's fit decides
          AND ($10::integer IS NULL OR coalesce(f.vram_gb, h.vram_gb) >= $10)
          AND ($11::integer IS NULL
               OR coalesce(f.vram_gb, h.vram_gb) * (SELECT max(c) FROM unnest(o.gpu_counts) c) >= $11)),
      -- the GPUs of the listed hosts only (of the one offer's host, through the index), counted
      -- against the window's bookings: the work follows the hosts a search lists, not the fleet.
      -- Written as a filter (IN inside an OR), not a join: the planner cannot estimate how many
      -- hosts are listed, and from a low guess it looped over them with an index probe each
      counted AS MATERIALIZED (
        SELECT g.host_id, min(g.model) AS model, min(g.vram_gb) AS vram_gb, count(*) :: integer AS total,
               (count(*) FILTER (WHERE g.health = 'healthy' AND g.id NOT IN (SELECT gpu_id FROM busy))) :: integer AS free
        FROM fleet_gpus_view g
        WHERE ($9::text IS NULL AND g.host_id IN (SELECT host_id FROM listed))
           OR g.host_id = (SELECT host_id FROM offers WHERE id = $9)
        GROUP BY g.host_id)

      SELECT l.id, l.host_id, l.host_name, l.host_status, l.site_name AS site, l.region, l.country,
             g.model AS gpu_model, m.architecture, g.vram_gb, g.total AS gpus_total,
             CASE WHEN mw.id IS NULL THEN g.free ELSE 0 END AS gpus_free,
             l.gpu_counts, l.cpu_model, l.cpu_cores, l.ram_gb, l.nvme_gb, l.net_gbps, l.interconnect,
             l.cpu_cores_per_gpu, l.ram_gb_per_gpu, l.nvme_gb_per_gpu,
             l.amount_per_gpu_hour AS price_per_gpu_hour, l.currency,
             m.hyperscaler_price_minor, m.specialized_price_minor,
             mw.id AS maintenance_id, mw.starts_at AS maintenance_starts_at, mw.ends_at AS maintenance_ends_at,
             mw.drain AS maintenance_drain,
             l.uptime_24h, l.uptime_7d, l.uptime_30d, l.counted_seconds_30d, l.down_seconds_30d,
             l.maintenance_seconds_30d, l.isolation,
             -- every live template: whether the host's image cache (its latest heartbeat) holds it,
             -- and whether the host's driver and CUDA meet its minimums
             (SELECT coalesce(json_agg(json_build_object('id', t.template_id, 'name', t.name, 'cached', t.cached,
                       'min_driver_version', t.min_driver_version, 'min_cuda_version', t.min_cuda_version,
                       'driver_version', t.driver_version, 'cuda_version', t.cuda_version,
                       'driver_ok', t.driver_ok, 'cuda_ok', t.cuda_ok)
                       ORDER BY t.is_default DESC, t.name), '[]' :: json)
              FROM host_templates_view t WHERE t.host_id = l.host_id) AS images
      FROM listed l
      -- the precomputed model and VRAM only narrowed the search: the GPUs counted now decide (the
      -- check names l so that it stays a join filter: as a filter on counted alone its estimate
      -- (a few rows) made the planner loop over the listed offers for each host)
      JOIN counted g ON g.host_id = l.host_id
        AND ($3::text IS NULL OR lower(g.model) = lower($3) OR l.id IS NULL)
        AND ($4::integer IS NULL OR g.vram_gb >= $4 OR l.id IS NULL)
      JOIN gpu_models m ON m.name = g.model
      -- planned maintenance (published by the fleet) that keeps the window free: no GPU is free
      LEFT JOIN LATERAL (SELECT id, starts_at, ends_at, drain FROM maintenance_windows_view
                         WHERE host_id = l.host_id AND blocked && tstzrange($1, $2) ORDER BY starts_at, id LIMIT 1) mw ON true""";
  /**
   * Free GPUs of the offer's host for each hour: the bookings of the host's healthy GPUs that
   * overlap the span (read once, through V30's btree (gpu_id, upper, lower)), each spread over the
   * hours it overlaps (hour n is [$2 + n h, $2 + (n + 1) h): from the hour its start falls in to the
   * hour before the one its end reaches), counted per hour; and the span's maintenance windows.
   * One join of the bookings with their hours: ~1,400 rows for a host's 14 days, where testing
   * every hour against every booking took ~19,000 range comparisons (docs/benchmarks.md, part 9).
   * Parameters: $1 offer id, $2 start, $3 hours.
   */
  private static final String TIMELINE = """
      WITH offer AS (SELECT host_id FROM offers WHERE id = $1),
      healthy AS (SELECT g.id FROM fleet_gpus_view g JOIN offer ON g.host_id = offer.host_id
                  WHERE g.health = 'healthy'),
      busy AS (SELECT n, count(DISTINCT b.gpu_id) AS gpus
               FROM booked_gpus_view b,
                    generate_series(greatest(0, floor(extract(epoch FROM lower(b.period) - $2::timestamptz) / 3600) :: integer),
                                    least($3::integer - 1,
                                          ceil(extract(epoch FROM upper(b.period) - $2::timestamptz) / 3600) :: integer - 1)) AS n
               WHERE b.gpu_id IN (SELECT id FROM healthy)
                 AND upper(b.period) > $2::timestamptz AND lower(b.period) < $2::timestamptz + $3::integer * interval '1 hour'
               GROUP BY n),
      blocked AS (SELECT w.blocked FROM maintenance_windows_view w, offer
                  WHERE w.host_id = offer.host_id
                    AND w.blocked && tstzrange($2::timestamptz, $2::timestamptz + $3::integer * interval '1 hour')),
      hours AS (SELECT n, tstzrange($2::timestamptz + n * interval '1 hour',
                                    $2::timestamptz + (n + 1) * interval '1 hour') AS slot
                FROM offer CROSS JOIN generate_series(0, $3::integer - 1) AS n)
      SELECT h.n, (CASE WHEN EXISTS (SELECT 1 FROM blocked WHERE blocked.blocked && h.slot)
                        THEN 0 -- planned maintenance: nothing is free
                        ELSE (SELECT count(*) FROM healthy) - coalesce(busy.gpus, 0) END) :: integer AS free
      FROM hours h LEFT JOIN busy ON busy.n = h.n
      ORDER BY h.n""";
  /**
   * The offer's own prices, or (when it has none yet) its model-and-site defaults, oldest first;
   * only those already in effect: a scheduled price is not shown to renters before its time. The
   * offer's host is read first, alone (as one join over the fleet's hosts view it hashed every host).
   */
  private static final String PRICE_HISTORY = """
      WITH offer AS MATERIALIZED (SELECT o.id, h.site_id, h.gpu_model AS model
                                  FROM offers o JOIN fleet_hosts_view h ON h.id = o.host_id WHERE o.id = $1),
      own AS MATERIALIZED (SELECT p.amount_per_gpu_hour, p.currency, p.effective_from
                           FROM prices p JOIN offer ON p.offer_id = offer.id WHERE p.effective_from <= now())
      SELECT amount_per_gpu_hour, currency, effective_from FROM own
      UNION ALL
      SELECT p.amount_per_gpu_hour, p.currency, p.effective_from FROM prices p JOIN offer
        ON p.offer_id IS NULL AND p.gpu_model = offer.model AND p.site_id = offer.site_id
      WHERE p.effective_from <= now() AND NOT EXISTS (SELECT 1 FROM own)
      ORDER BY effective_from""";
  /**
   * One offer by id (offer page, quote): the search's row for it, from V33's {@code catalog_offer},
   * which reads the same views for that one offer with a plan made once per connection (the pool
   * plans every other statement afresh, and this one's views made planning cost more than running it).
   * Parameters: $1 offer id, $2 start, $3 end.
   */
  private static final String OFFER = "SELECT * FROM catalog_offer($1, $2, $3)";
  private static final String GPU_MODELS = """
      SELECT name, vram_gb, architecture, hyperscaler_price_minor, hyperscaler_source,
             specialized_price_minor, specialized_source, reference_currency, reference_as_of
      FROM gpu_models ORDER BY vram_gb DESC, name""";

  private final Pool pool;

  public CatalogRepository(Pool pool) {
    this.pool = pool;
  }

  /** What the search may filter in SQL; the rest (GPU counts, availability) is decided per row. */
  public record Filter(String gpuModel, Integer minVramGb, String region, String site, String interconnect,
      Long maxPricePerGpuHour) {}

  /**
   * The VRAM a workload needs, in whole GB (GPUs have whole GB, so rounding up keeps the comparison
   * exact), to narrow a search in SQL to the hosts that could hold it: null where nothing narrows.
   */
  public record VramNeed(Integer perGpuGb, Integer totalGb) {
    public static final VramNeed NONE = new VramNeed(null, null);
  }

  public Future<List<OfferRow>> offers(Filter filter, OffsetDateTime start, OffsetDateTime end) {
    return offers(filter, start, end, VramNeed.NONE);
  }

  /** The offers of {@link #offers(Filter, OffsetDateTime, OffsetDateTime)} whose hosts could hold {@code need}. */
  public Future<List<OfferRow>> offers(Filter filter, OffsetDateTime start, OffsetDateTime end, VramNeed need) {
    return query(Tuple.from(new Object[] {start, end, filter.gpuModel(), filter.minVramGb(), filter.region(),
        filter.site(), filter.interconnect(), filter.maxPricePerGpuHour(), null, need.perGpuGb(), need.totalGb()}));
  }

  public Future<Optional<OfferRow>> offer(String offerId, OffsetDateTime start, OffsetDateTime end) {
    return pool.preparedQuery(OFFER).execute(Tuple.of(offerId, start, end))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(OfferRow.from(rows.iterator().next())));
  }

  /** Free GPUs of the offer's host for each of {@code hours} hours from {@code start}. */
  public Future<List<Integer>> freeByHour(String offerId, OffsetDateTime start, int hours) {
    return pool.preparedQuery(TIMELINE).execute(Tuple.of(offerId, start, hours)).map(rows -> {
      List<Integer> free = new ArrayList<>();
      rows.forEach(row -> free.add(row.getInteger("free")));
      return free;
    });
  }

  public Future<JsonArray> priceHistory(String offerId) {
    return pool.preparedQuery(PRICE_HISTORY).execute(Tuple.of(offerId)).map(rows -> {
      JsonArray history = new JsonArray();
      rows.forEach(row -> history.add(new JsonObject()
          .put("amount_per_gpu_hour", new JsonObject().put("amount", row.getLong("amount_per_gpu_hour"))
              .put("currency", row.getString("currency").trim()))
          .put("effective_from", row.getOffsetDateTime("effective_from").toInstant().toString())));
      return history;
    });
  }

  public Future<JsonArray> gpuModels() {
    return pool.query(GPU_MODELS).execute().map(rows -> {
      JsonArray models = new JsonArray();
      rows.forEach(row -> models.add(new JsonObject()
          .put("name", row.getString("name"))
          .put("vram_gb", row.getInteger("vram_gb"))
          .put("architecture", row.getString("architecture"))
          .put("reference_prices", new JsonObject()
              .put("hyperscaler", reference(row, "hyperscaler"))
              .put("specialized", reference(row, "specialized")))));
      return models;
    });
  }

  /** Runs {@link #OFFERS}; the pool's custom plans let it drop the filters left NULL. */
  private Future<List<OfferRow>> query(Tuple params) {
    return pool.preparedQuery(OFFERS).execute(params).map(rows -> {
      List<OfferRow> offers = new ArrayList<>();
      rows.forEach(row -> offers.add(OfferRow.from(row)));
      return offers;
    });
  }

  private static JsonObject reference(Row row, String kind) {
    Long price = row.getLong(kind + "_price_minor");
    if (price == null) {
      return null;
    }
    return new JsonObject()
        .put("price", new JsonObject().put("amount", price).put("currency", row.getString("reference_currency").trim()))
        .put("source", row.getString(kind + "_source"))
        .put("as_of", row.getLocalDate("reference_as_of") == null ? null : row.getLocalDate("reference_as_of").toString());
  }
}
