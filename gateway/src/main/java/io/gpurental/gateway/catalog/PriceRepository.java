package io.gpurental.gateway.catalog;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The operator's side of {@code prices}: new rows (never an update), and what is current or scheduled. */
final class PriceRepository {
  private static final String ROW = "id, offer_id, gpu_model, site_id, amount_per_gpu_hour, currency, effective_from,"
      + " set_by, created_at";
  /** A price from its time, or from now when no time is given (a time in the past counts as now). */
  private static final String INSERT = """
      INSERT INTO prices (offer_id, gpu_model, site_id, amount_per_gpu_hour, currency, effective_from, set_by)
      VALUES ($1, $2, $3, $4, $5, greatest(coalesce($6, now()), now()), $7) RETURNING\s""" + ROW;
  /** Per offer and per model-and-site default: the latest price in effect, and every scheduled one. */
  private static final String CURRENT_AND_SCHEDULED = """
      SELECT * FROM (SELECT DISTINCT ON (offer_id, gpu_model, site_id) %1$s, false AS scheduled FROM prices
                     WHERE effective_from <= now() ORDER BY offer_id, gpu_model, site_id, effective_from DESC, id DESC) cur
      UNION ALL SELECT %1$s, true AS scheduled FROM prices WHERE effective_from > now()
      ORDER BY effective_from""".formatted(ROW);
  private static final String CURRENT_OF = """
      SELECT %s FROM prices WHERE (offer_id = $1 OR (offer_id IS NULL AND gpu_model = $2 AND site_id = $3))
        AND effective_from <= now() ORDER BY effective_from DESC, id DESC LIMIT 1""".formatted(ROW);
  private static final String OFFERS = """
      SELECT o.id, h.name AS host_name, h.gpu_model, h.site_id, h.site_name, p.amount_per_gpu_hour, p.currency,
             p.effective_from, p.own_price
      FROM offers o JOIN fleet_hosts_view h ON h.id = o.host_id LEFT JOIN offer_prices_view p ON p.offer_id = o.id
      WHERE o.closed_at IS NULL ORDER BY h.name""";

  private PriceRepository() {}

  static Future<Prices.PriceRow> insert(SqlClient tx, String offerId, String gpuModel, String siteId, Offers.Price price,
      Optional<Instant> effectiveAt, String actor) {
    Tuple values = Tuple.of(offerId, gpuModel, siteId, price.amount(), price.currency(),
        effectiveAt.map(at -> at.atOffset(ZoneOffset.UTC)).orElse(null), actor);
    return tx.preparedQuery(INSERT).execute(values).map(rows -> row(rows.iterator().next()));
  }

  /** The price in effect now for exactly this target (an offer's own, or a model-and-site default). */
  static Future<Optional<Prices.PriceRow>> currentOf(SqlClient client, String offerId, String gpuModel, String siteId) {
    return client.preparedQuery(CURRENT_OF).execute(Tuple.of(offerId, gpuModel, siteId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(row(rows.iterator().next())));
  }

  static Future<List<Prices.PriceRow>> currentAndScheduled(SqlClient client) {
    return client.query(CURRENT_AND_SCHEDULED).execute().map(rows -> {
      List<Prices.PriceRow> prices = new ArrayList<>();
      rows.forEach(row -> prices.add(row(row)));
      return prices;
    });
  }

  static Future<List<Prices.OfferPrice>> openOffers(SqlClient client) {
    return client.query(OFFERS).execute().map(rows -> {
      List<Prices.OfferPrice> offers = new ArrayList<>();
      rows.forEach(row -> {
        Long amount = row.getLong("amount_per_gpu_hour");
        offers.add(new Prices.OfferPrice(row.getString("id"), row.getString("host_name"), row.getString("gpu_model"),
            row.getString("site_id"), row.getString("site_name"),
            amount == null ? Optional.empty() : Optional.of(new Offers.Price(amount, row.getString("currency").trim())),
            amount == null ? null : row.getOffsetDateTime("effective_from").toInstant(),
            Boolean.TRUE.equals(row.getBoolean("own_price"))));
      });
      return offers;
    });
  }

  private static Prices.PriceRow row(Row row) {
    OffsetDateTime from = row.getOffsetDateTime("effective_from");
    Boolean scheduled = row.getColumnIndex("scheduled") < 0 ? null : row.getBoolean("scheduled");
    return new Prices.PriceRow(row.getLong("id"), row.getString("offer_id"), row.getString("gpu_model"), row.getString("site_id"),
        new Offers.Price(row.getLong("amount_per_gpu_hour"), row.getString("currency").trim()), from.toInstant(),
        row.getString("set_by"), row.getOffsetDateTime("created_at").toInstant(),
        scheduled == null ? from.toInstant().isAfter(Instant.now()) : scheduled);
  }
}
