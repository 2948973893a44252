package io.gpurental.gateway.catalog;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

/**
 * Writes {@code offer_figures} (V24): each open offer's price in effect now and its host's uptime,
 * computed by the same views the offer page, quotes and the operator's pages read
 * ({@code offer_prices_view}, {@code host_uptime_view}), so a search can show them without asking
 * the views for every offer it lists. Each statement takes the hosts to refresh, or null for all.
 */
final class OfferFiguresRepository {
  /**
   * The price, with what it depends on: the newest price row seen (any newer row makes it stale),
   * the host's site (the defaults it may fall back to) and when it was computed (a price taking
   * effect later makes it stale); and the host's model and VRAM, with which a search narrows.
   */
  private static final String REFRESH_PRICES = """
      INSERT INTO offer_figures AS f (offer_id, host_id, amount_per_gpu_hour, currency, prices_seen, gpu_model,
                                      vram_gb, site_id, price_at)
      SELECT o.id, o.host_id, p.amount_per_gpu_hour, p.currency, seen.price_id, h.gpu_model, h.vram_gb, h.site_id,
             now()
      FROM (SELECT coalesce(max(id), 0) AS price_id FROM prices) seen
      CROSS JOIN offers o JOIN fleet_hosts_view h ON h.id = o.host_id
      LEFT JOIN LATERAL (SELECT amount_per_gpu_hour, currency FROM offer_prices_view WHERE offer_id = o.id OFFSET 0) p
        ON true
      WHERE o.closed_at IS NULL AND HOSTS
      ON CONFLICT (offer_id) DO UPDATE SET host_id = excluded.host_id,
        amount_per_gpu_hour = excluded.amount_per_gpu_hour, currency = excluded.currency,
        prices_seen = excluded.prices_seen, gpu_model = excluded.gpu_model, vram_gb = excluded.vram_gb, site_id = excluded.site_id,
        price_at = excluded.price_at""";
  /** The host's uptime as host_uptime_view gives it now (per host: the view asked for one host is cheap). */
  private static final String REFRESH_UPTIME = """
      INSERT INTO offer_figures AS f (offer_id, host_id, uptime_24h, uptime_7d, uptime_30d, counted_seconds_30d,
                                      down_seconds_30d, maintenance_seconds_30d, uptime_at)
      SELECT o.id, o.host_id, u.uptime_24h, u.uptime_7d, u.uptime_30d, u.counted_seconds_30d, u.down_seconds_30d,
             u.maintenance_seconds_30d, now()
      FROM offers o
      LEFT JOIN LATERAL (SELECT * FROM host_uptime_view WHERE host_id = o.host_id OFFSET 0) u ON true
      WHERE o.closed_at IS NULL AND HOSTS
      ON CONFLICT (offer_id) DO UPDATE SET host_id = excluded.host_id, uptime_24h = excluded.uptime_24h,
        uptime_7d = excluded.uptime_7d, uptime_30d = excluded.uptime_30d,
        counted_seconds_30d = excluded.counted_seconds_30d, down_seconds_30d = excluded.down_seconds_30d,
        maintenance_seconds_30d = excluded.maintenance_seconds_30d, uptime_at = excluded.uptime_at""";

  private final Pool pool;

  OfferFiguresRepository(Pool pool) {
    this.pool = pool;
  }

  /** Recomputes the prices of the given hosts' offers (null: every open offer). */
  Future<Void> refreshPrices(String[] hostIds) {
    return refresh(REFRESH_PRICES, hostIds);
  }

  /** Recomputes the uptime of the given hosts' offers (null: every open offer). */
  Future<Void> refreshUptime(String[] hostIds) {
    return refresh(REFRESH_UPTIME, hostIds);
  }

  /** One statement for all offers and one for some hosts', so that a cached (generic) plan fits each. */
  private Future<Void> refresh(String statement, String[] hostIds) {
    return hostIds == null ? pool.query(statement.replace("HOSTS", "true")).execute().mapEmpty()
        : pool.preparedQuery(statement.replace("HOSTS", "o.host_id = ANY ($1)")).execute(Tuple.of((Object) hostIds))
            .mapEmpty();
  }
}
