package io.gpurental.gateway.catalog;

import io.gpurental.gateway.catalog.workloads.Fit;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One page of a search, in SQL, for the sorts whose key is known before availability is counted
 * (price, VRAM, price per GB of VRAM): the first offers of the filters in that order (and the
 * offer id) are read from the indexes on {@code offer_figures} (V31), merged with the few whose
 * precomputed row does not hold (priced by the views), and walked from the cursor on; only the
 * offers walked get their free GPUs counted for the window (one ordered probe per GPU), until the
 * page is full. So a search costs about what it returns, not what the fleet holds. The same
 * statement, restricted to given offers, counts a workload search's offers in its own order
 * ({@code CatalogQueries}), whose candidates {@link #candidates} lists.
 * <p>The statement is written from the filters given (no {@code $n IS NULL OR …}), so it runs
 * with a generic plan. Its rows are those of {@link CatalogRepository}'s full search, with the
 * same rules: price from the precomputed {@code offer_figures} row while it holds, else
 * {@code offer_prices_view}; uptime likewise from {@code host_uptime_view}; the GPUs counted now
 * decide model and VRAM.
 */
final class OfferPages {
  /** The sort key of a row (both figures always, so one cursor shape serves every sort) and its id. */
  record Key(long price, int vram, String id) {}

  /** A row of the page and the key a cursor after it carries. */
  record Keyed(OfferRow row, Key key) {}

  /** What a page asks for; {@code after} is null on the first page. */
  record Request(CatalogRepository.Filter filter, OffsetDateTime start, OffsetDateTime end, String sort, int minGpus,
      int maxGpus, boolean includeUnavailable, Key after, int limit, CatalogRepository.VramNeed need, List<String> ids) {
    Request(CatalogRepository.Filter filter, OffsetDateTime start, OffsetDateTime end, String sort, int minGpus,
        int maxGpus, boolean includeUnavailable, Key after, int limit) {
      this(filter, start, end, sort, minGpus, maxGpus, includeUnavailable, after, limit, CatalogRepository.VramNeed.NONE,
          null);
    }
  }

  /**
   * An open offer of the filters as a workload search ranks it before counting its GPUs: its price
   * and hardware from the precomputed row while it holds, else from the views (the same rules as
   * the page's candidates).
   */
  record Candidate(String id, long price, String currency, Fit.Hardware hardware) {}

  /** The sorts paged in SQL; the others (availability, workload fit) need every row counted first. */
  static boolean pages(String sort) {
    return "price".equals(sort) || "vram".equals(sort) || "price_per_vram_gb".equals(sort);
  }

  private static final String LATEST = """
      WITH latest AS MATERIALIZED (
        SELECT (SELECT max(id) FROM prices) AS price_id,
               (SELECT max(effective_from) FROM prices WHERE effective_from <= now()) AS effective_from)
      """;
  /** The page's columns, per candidate walked. */
  private static final String SELECT = """
      SELECT l.id, l.host_id, l.host_name, l.host_status, l.site_name AS site, l.region, l.country,
             g.model AS gpu_model, m.architecture, g.vram_gb, g.total AS gpus_total,
             CASE WHEN mw.id IS NULL THEN g.free ELSE 0 END AS gpus_free,
             l.gpu_counts, l.cpu_model, l.cpu_cores, l.ram_gb, l.nvme_gb, l.net_gbps, l.interconnect,
             l.cpu_cores_per_gpu, l.ram_gb_per_gpu, l.nvme_gb_per_gpu,
             l.amount_per_gpu_hour AS price_per_gpu_hour, l.currency,
             m.hyperscaler_price_minor, m.specialized_price_minor,
             mw.id AS maintenance_id, mw.starts_at AS maintenance_starts_at, mw.ends_at AS maintenance_ends_at,
             mw.drain AS maintenance_drain,
             u.uptime_24h, u.uptime_7d, u.uptime_30d, u.counted_seconds_30d, u.down_seconds_30d,
             u.maintenance_seconds_30d, l.isolation, l.sort_vram, l.candidates,
             (SELECT coalesce(json_agg(json_build_object('id', t.template_id, 'name', t.name, 'cached', t.cached,
                       'min_driver_version', t.min_driver_version, 'min_cuda_version', t.min_cuda_version,
                       'driver_version', t.driver_version, 'cuda_version', t.cuda_version,
                       'driver_ok', t.driver_ok, 'cuda_ok', t.cuda_ok)
                       ORDER BY t.is_default DESC, t.name), '[]' :: json)
              FROM host_templates_view t WHERE t.host_id = l.host_id) AS images
      """;
  /** A workload search's candidates: what its fit and price need. */
  private static final String CANDIDATES = """
      SELECT l.id, l.amount_per_gpu_hour, l.currency, l.sort_model, l.sort_vram, l.gpu_counts, l.interconnect,
             l.ram_gb_per_gpu, l.nvme_gb_per_gpu
      """;
  /**
   * The candidates whose precomputed row holds (price, model, VRAM), from {@code offer_figures}
   * alone, so that the first few in the sort's order come straight from V31's indexes.
   */
  private static final String HOLDING = """
        SELECT f.offer_id AS id, f.amount_per_gpu_hour, f.currency, f.vram_gb AS sort_vram, f.gpu_model AS sort_model,
               -- price per GB of VRAM as Java divides it (a VRAM of 0 counts as 1); V31's index has it
               f.amount_per_gpu_hour :: float8 / greatest(f.vram_gb, 1) AS sort_ratio,
               f.uptime_24h AS f_uptime_24h, f.uptime_7d AS f_uptime_7d, f.uptime_30d AS f_uptime_30d,
               f.counted_seconds_30d AS f_counted, f.down_seconds_30d AS f_down,
               f.maintenance_seconds_30d AS f_maintenance,
               coalesce(f.uptime_at > now() - interval '1 hour', false) AS uptime_holds
        FROM offer_figures f
        WHERE coalesce(f.prices_seen >= (SELECT price_id FROM latest) AND f.price_at >= (SELECT effective_from FROM latest)
                       AND f.gpu_model IS NOT NULL AND f.vram_gb IS NOT NULL, false)
          AND f.amount_per_gpu_hour IS NOT NULL
      """;
  /**
   * Per candidate in order: its offer and host, open and serving, with a GPU count of at least
   * min_gpus (the smallest of them at most max_gpus) and the host filters.
   */
  private static final String OFFER_AND_HOST = """
      CROSS JOIN LATERAL (
        SELECT o.host_id, o.gpu_counts, o.cpu_cores_per_gpu, o.ram_gb_per_gpu, o.nvme_gb_per_gpu, o.isolation,
               h.name AS host_name, h.status AS host_status, h.site_name, h.region, h.country, h.cpu_model,
               h.cpu_cores, h.ram_gb, h.nvme_gb, h.net_gbps, h.interconnect
        FROM offers o JOIN fleet_hosts_view h ON h.id = o.host_id
        WHERE o.id = c.id AND o.closed_at IS NULL AND h.status IN ('active', 'maintenance')
          AND (SELECT min(c) FROM unnest(o.gpu_counts) c WHERE c >= MIN_GPUS::integer) <= MAX_GPUS::integer
      """;
  /**
   * The other candidates (no row, or one that no longer holds), priced by the views as in
   * CatalogRepository.OFFERS; usually none, as the refresh keeps the rows.
   */
  private static final String OTHERS = """
        SELECT o.id, p.amount_per_gpu_hour, p.currency, coalesce(f.vram_gb, h.vram_gb) AS sort_vram,
               coalesce(f.gpu_model, h.gpu_model) AS sort_model,
               p.amount_per_gpu_hour :: float8 / greatest(coalesce(f.vram_gb, h.vram_gb), 1) AS sort_ratio,
               f.uptime_24h AS f_uptime_24h, f.uptime_7d AS f_uptime_7d, f.uptime_30d AS f_uptime_30d,
               f.counted_seconds_30d AS f_counted, f.down_seconds_30d AS f_down,
               f.maintenance_seconds_30d AS f_maintenance,
               coalesce(f.uptime_at > now() - interval '1 hour', false) AS uptime_holds
        FROM (
          -- found through V31's indexes, not by reading every offer (every open offer has a row,
          -- V31): rows older than the newest price or than the price last in effect, rows
          -- without figures (not refreshed yet) or without model or VRAM
          SELECT offer_id AS id FROM offer_figures WHERE prices_seen < (SELECT price_id FROM latest) ONLY_F0
          UNION
          SELECT offer_id FROM offer_figures WHERE price_at < (SELECT effective_from FROM latest) ONLY_F0
          UNION
          SELECT offer_id FROM offer_figures
          WHERE (prices_seen IS NULL OR price_at IS NULL OR gpu_model IS NULL OR vram_gb IS NULL) ONLY_F0
          -- planned on its own: usually no row, and the offers and hosts only for those
          OFFSET 0) stale
        JOIN offers o ON o.id = stale.id
        JOIN fleet_hosts_view h ON h.id = o.host_id
        LEFT JOIN offer_figures f ON f.offer_id = o.id
        CROSS JOIN LATERAL (
          SELECT coalesce(f.prices_seen >= (SELECT price_id FROM latest) AND f.site_id = h.site_id
                            AND f.price_at >= (SELECT effective_from FROM latest), false) AS price_holds) fresh
        -- the one rule for the price that applies now (V14), as in CatalogRepository.OFFERS
        CROSS JOIN LATERAL (
          SELECT f.amount_per_gpu_hour, f.currency WHERE fresh.price_holds AND f.amount_per_gpu_hour IS NOT NULL
          UNION ALL
          SELECT v.amount_per_gpu_hour, v.currency
          FROM (SELECT * FROM offer_prices_view WHERE offer_id = o.id OFFSET 0) v WHERE NOT fresh.price_holds) p
        -- exactly the rows the holding candidates leave out
        WHERE NOT coalesce(f.prices_seen >= (SELECT price_id FROM latest) AND f.price_at >= (SELECT effective_from FROM latest)
                           AND f.gpu_model IS NOT NULL AND f.vram_gb IS NOT NULL, false)
          AND o.closed_at IS NULL AND h.status IN ('active', 'maintenance')
          AND (SELECT min(c) FROM unnest(o.gpu_counts) c WHERE c >= MIN_GPUS::integer) <= MAX_GPUS::integer
      """;
  /** Per candidate walked: its GPUs counted for the window, maintenance, uptime, the model's figures. */
  private static final String WALK = """
      -- planned maintenance that keeps the window free: no GPU is free, none is counted
      LEFT JOIN LATERAL (SELECT id, starts_at, ends_at, drain FROM maintenance_windows_view
                         WHERE host_id = l.host_id AND blocked && tstzrange($1, $2) ORDER BY starts_at, id LIMIT 1) mw ON true
      CROSS JOIN LATERAL (
        SELECT min(g.model) AS model, min(g.vram_gb) AS vram_gb, count(*) :: integer AS total,
               array_agg(g.id) FILTER (WHERE g.health = 'healthy') AS healthy
        FROM fleet_gpus_view g WHERE g.host_id = l.host_id) hg
      -- free: the host's healthy GPUs that no booking holds at any time in [$1, $2) (booked periods
      -- are [lower, upper)). A GPU's bookings do not overlap (the exclusion constraint), so the first
      -- that ends after $1 is the one that starts first: the window is booked if it starts before
      -- $2. One probe per GPU, read in order from V30's index (asked with the host's GPUs as an array,
      -- the planner took the exclusion constraint's index at 10,000 hosts and read every booking of
      -- their history)
      CROSS JOIN LATERAL (
        SELECT hg.model, hg.vram_gb, hg.total,
               (coalesce(cardinality(hg.healthy), 0) - CASE WHEN mw.id IS NULL THEN
                  (SELECT count(*) FROM unnest(hg.healthy) AS healthy(gpu_id)
                   WHERE (SELECT lower(b.period) FROM booked_gpus_view b
                          WHERE b.gpu_id = healthy.gpu_id AND upper(b.period) > $1
                          ORDER BY upper(b.period) LIMIT 1) < $2) ELSE 0 END) :: integer AS free
        OFFSET 0) g
      CROSS JOIN LATERAL (SELECT architecture, hyperscaler_price_minor, specialized_price_minor
                          FROM gpu_models WHERE name = g.model) m
      LEFT JOIN LATERAL (
        SELECT l.f_uptime_24h AS uptime_24h, l.f_uptime_7d AS uptime_7d, l.f_uptime_30d AS uptime_30d,
               l.f_counted AS counted_seconds_30d, l.f_down AS down_seconds_30d,
               l.f_maintenance AS maintenance_seconds_30d WHERE l.uptime_holds
        UNION ALL
        SELECT v.uptime_24h, v.uptime_7d, v.uptime_30d, v.counted_seconds_30d, v.down_seconds_30d,
               v.maintenance_seconds_30d
        FROM (SELECT * FROM host_uptime_view WHERE host_id = l.host_id OFFSET 0) v WHERE NOT l.uptime_holds) u ON true
      -- bookable: an allowed count between min_gpus and max_gpus that the free GPUs hold (an
      -- active host, no maintenance in the window), unless unavailable offers are asked for too
      WHERE ($5::boolean OR EXISTS (SELECT 1 FROM unnest(l.gpu_counts) c
                                    WHERE c >= $3 AND c <= $4
                                      AND c <= CASE WHEN l.host_status = 'active' AND mw.id IS NULL THEN g.free ELSE 0 END))
      """;

  private final Pool pool;

  OfferPages(Pool pool) {
    this.pool = pool;
  }

  /**
   * Up to {@code limit} rows after the request's cursor, in its order. The first try walks only the
   * first few candidates in order; a page it does not fill (few offers left, or many of them not
   * bookable in the window) is asked again over more, then over all of them.
   */
  Future<List<Keyed>> page(Request request) {
    return page(request, FIRST_CANDIDATES * Math.max(1, request.limit()));
  }

  /** The request's rows over the first {@code candidates} in order ({@link #ALL}: every one), in one statement. */
  Future<List<Keyed>> page(Request request, int candidates) {
    return rows(request, candidates);
  }

  private Future<List<Keyed>> rows(Request request, int candidates) {
    List<Object> params = new ArrayList<>(List.of(request.start(), request.end(), request.minGpus(),
        request.maxGpus(), request.includeUnavailable(), request.limit()));
    String sql = sql(request, params, candidates);
    return generic(sql, Tuple.from(params)).compose(rows -> {
      List<Keyed> page = new ArrayList<>();
      rows.forEach(row -> {
        OfferRow offer = OfferRow.from(row);
        page.add(new Keyed(offer, new Key(offer.pricePerGpuHour(), row.getInteger("sort_vram"), offer.id())));
      });
      // a full page from the first candidates is the page (they are the first in order), and so is
      // a page from fewer candidates than asked for (there are no more)
      boolean allRead = candidates == ALL
          || rows.size() > 0 && rows.iterator().next().getLong("candidates") < candidates;
      if (page.size() >= request.limit() || allRead) {
        return Future.succeededFuture(page);
      }
      return page(request, candidates >= MAX_CANDIDATES ? ALL : candidates * 8);
    });
  }

  /**
   * Runs the page's statement with a generic plan, kept with the connection's prepared statement:
   * it is written from the filters given, so the plan does not depend on the values, and planning
   * it on every run (the pool forces custom plans, DatabasePool) cost more than running it: 3.9 of
   * 5.9 ms at 100 hosts, 4.5 of 13.6 ms at 10,000 (docs/benchmarks.md, "Catalog at scale", part 8).
   * The setting and the statement are sent together, in a transaction of their own that ends it.
   */
  private Future<RowSet<Row>> generic(String sql, Tuple params) {
    return pool.withTransaction(conn -> {
      Future<RowSet<Row>> set = conn.query("SET LOCAL plan_cache_mode = force_generic_plan").execute();
      Future<RowSet<Row>> rows = conn.preparedQuery(sql).execute(params);
      return set.compose(v -> rows);
    });
  }

  /** Candidates walked per row asked for on the first try, and the most walked before all are. */
  private static final int FIRST_CANDIDATES = 2;
  private static final int MAX_CANDIDATES = 2_000;
  static final int ALL = 0;

  /**
   * The statement for the request's filters, sort and cursor over the first {@code candidates} in
   * order ({@link #ALL}: every one); appends their parameters to {@code params}.
   */
  static String sql(Request request, List<Object> params, int candidates) {
    return sql(request, params, candidates, true);
  }

  /** Every candidate of the request's filters, VRAM need and ids, not counted (a workload search ranks them). */
  Future<List<Candidate>> candidates(Request request) {
    List<Object> params = new ArrayList<>(List.of(request.minGpus(), request.maxGpus()));
    String sql = sql(request, params, ALL, false);
    return pool.preparedQuery(sql).execute(Tuple.from(params)).map(rows -> {
      List<Candidate> candidates = new ArrayList<>();
      rows.forEach(row -> candidates.add(new Candidate(row.getString("id"), row.getLong("amount_per_gpu_hour"),
          row.getString("currency"), new Fit.Hardware(row.getString("sort_model"), row.getInteger("sort_vram"),
              Arrays.asList(row.getArrayOfIntegers("gpu_counts")), row.getString("interconnect"),
              row.getInteger("ram_gb_per_gpu"), row.getInteger("nvme_gb_per_gpu")))));
      return candidates;
    });
  }

  /** Without the walk ({@code walk} false) the statement lists the candidates: its parameters are min and max GPUs first. */
  private static String sql(Request request, List<Object> params, int candidates, boolean walk) {
    CatalogRepository.Filter filter = request.filter();
    // the same filters on both kinds of candidates: on the precomputed row (holding) or the views (others)
    // the candidates' statement numbers its parameters from min and max GPUs ($1, $2), the page's from $3
    String minGpus = walk ? "$3" : "$1";
    String maxGpus = walk ? "$4" : "$2";
    StringBuilder holding = new StringBuilder(HOLDING);
    // the offers asked for by id (a walked workload search): only theirs are looked at, stale or not
    String ids = request.ids() == null ? null : param(params, request.ids().toArray(String[]::new)) + "::text[]";
    StringBuilder others = new StringBuilder(OTHERS.replace("MIN_GPUS", minGpus).replace("MAX_GPUS", maxGpus)
        .replace("ONLY_F0", ids == null ? "" : "AND offer_id = ANY (" + ids + ")"));
    StringBuilder recheck = new StringBuilder();
    if (filter.gpuModel() != null) {
      String p = param(params, filter.gpuModel());
      holding.append("  AND lower(f.gpu_model) = lower(").append(p).append("::text)\n");
      others.append("  AND lower(coalesce(f.gpu_model, h.gpu_model)) = lower(").append(p).append("::text)\n");
      recheck.append("  AND lower(g.model) = lower(").append(p).append("::text)\n");
    }
    if (filter.minVramGb() != null) {
      String p = param(params, filter.minVramGb());
      holding.append("  AND f.vram_gb >= ").append(p).append("::integer\n");
      others.append("  AND coalesce(f.vram_gb, h.vram_gb) >= ").append(p).append("::integer\n");
      recheck.append("  AND g.vram_gb >= ").append(p).append("::integer\n");
    }
    StringBuilder host = new StringBuilder();
    if (filter.region() != null) {
      host.append("  AND h.region = ").append(param(params, filter.region())).append("::text\n");
    }
    if (filter.site() != null) {
      String p = param(params, filter.site());
      host.append("  AND (h.site_id = ").append(p).append("::text OR lower(h.site_name) = lower(").append(p)
          .append("::text))\n");
    }
    if (filter.interconnect() != null) {
      host.append("  AND lower(h.interconnect) = lower(").append(param(params, filter.interconnect()))
          .append("::text)\n");
    }
    others.append(host);
    if (ids != null) {
      holding.append("  AND f.offer_id = ANY (").append(ids).append(")\n");
    }
    // a workload's VRAM per GPU and in all at the offer's largest count, as CatalogRepository.OFFERS narrows
    if (request.need().perGpuGb() != null) {
      host.append("  AND c.sort_vram >= ").append(param(params, request.need().perGpuGb())).append("::integer\n");
    }
    if (request.need().totalGb() != null) {
      host.append("  AND c.sort_vram * (SELECT max(n) FROM unnest(o.gpu_counts) n) >= ")
          .append(param(params, request.need().totalGb())).append("::integer\n");
    }
    if (filter.maxPricePerGpuHour() != null) {
      String p = param(params, filter.maxPricePerGpuHour());
      holding.append("  AND f.amount_per_gpu_hour <= ").append(p).append("::bigint\n");
      others.append("  AND p.amount_per_gpu_hour <= ").append(p).append("::bigint\n");
    }
    Order order = Order.of(request.sort());
    if (request.after() != null) {
      After after = order.after(params, request.after());
      holding.append("  AND ").append(after.on("f.amount_per_gpu_hour", "f.vram_gb", "f.offer_id")).append('\n');
      others.append("  AND ").append(after.on("p.amount_per_gpu_hour", "coalesce(f.vram_gb, h.vram_gb)", "o.id"))
          .append('\n');
    }
    // each kind in order, then both merged: the walk below keeps that order (no sort there) and
    // stops at the page's last row
    String first = candidates == ALL ? "" : "ORDER BY " + order.inner + " LIMIT " + candidates + "\n";
    StringBuilder sql = new StringBuilder(LATEST).append(walk ? SELECT : CANDIDATES)
        .append("FROM (SELECT c.*, oh.* FROM (SELECT *, count(*) OVER () AS candidates FROM (SELECT * FROM (\n(")
        .append(holding).append(first).append(")\nUNION ALL\n(")
        .append(others).append(first).append(")) c\nORDER BY ").append(order.inner)
        .append(candidates == ALL ? " OFFSET 0" : " LIMIT " + candidates)
        // how many candidates there were (at most the limit: fewer, and none was left out), in the
        // same order again, so that the planner knows it and the walk stops at the page's last row
        .append(") c ORDER BY ").append(order.inner).append(") c\n")
        .append(OFFER_AND_HOST.replace("MIN_GPUS", minGpus).replace("MAX_GPUS", maxGpus)).append(host)
        .append(") oh) l\n");
    if (walk) {
      sql.append(WALK).append(recheck).append("ORDER BY ").append(order.outer).append("\nLIMIT $6");
    }
    return sql.toString();
  }

  private static String param(List<Object> params, Object value) {
    params.add(value);
    return "$" + params.size();
  }

  /**
   * The order of a sort, the same as {@code CatalogQueries}' order for the full search: base price
   * per GPU-hour, VRAM (largest first), or base price per GB of VRAM; then the offer id.
   */
  private record Order(String inner, String outer, String name) {
    static Order of(String sort) {
      return switch (sort) {
        // the inner order names the candidates' own columns, so the walk above keeps it (no sort there)
        case "vram" -> new Order("sort_vram DESC, id", "l.sort_vram DESC, l.id", sort);
        case "price_per_vram_gb" -> new Order("sort_ratio, id", "l.sort_ratio, l.id", sort);
        default -> new Order("amount_per_gpu_hour, id", "l.amount_per_gpu_hour, l.id", "price");
      };
    }

    /** Rows strictly after the cursor's row in this order (its parameters added once, for both kinds). */
    After after(List<Object> params, Key key) {
      String id = param(params, key.id()) + "::text";
      String price = "price_per_vram_gb".equals(name) || "price".equals(name) ? param(params, key.price()) + "::bigint" : null;
      String vram = "price".equals(name) ? null : param(params, key.vram()) + "::integer";
      return (priceColumn, vramColumn, idColumn) -> switch (name) {
        // the bound first, so an index in this order starts there
        case "vram" -> vramColumn + " <= " + vram + " AND (" + vramColumn + " < " + vram + " OR " + idColumn + " > "
            + id + ")";
        case "price_per_vram_gb" -> "(" + ratio(priceColumn, vramColumn) + ", " + idColumn + ") > (" + ratio(price, vram)
            + ", " + id + ")";
        default -> "(" + priceColumn + ", " + idColumn + ") > (" + price + ", " + id + ")";
      };
    }

    /** Price per GB as a double, as Java divides it (a VRAM of 0 counts as 1). */
    private static String ratio(String price, String vram) {
      return price + " :: float8 / greatest(" + vram + ", 1)";
    }
  }

  /** The cursor's condition written on the columns of one kind of candidate. */
  private interface After {
    String on(String priceColumn, String vramColumn, String idColumn);
  }
}
