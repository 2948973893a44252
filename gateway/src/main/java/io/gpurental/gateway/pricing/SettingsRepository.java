package io.gpurental.gateway.pricing;

import io.gpurental.gateway.config.PricingConfig;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/** The one row of {@code pricing_settings}: the terms new quotes are priced with. */
final class SettingsRepository {
  private static final String COLUMNS =
      "duration_discounts, platform_fee_bps, tax_bps, cancellation_fee_bps, updated_at, updated_by";
  /** The stored terms; the configured ones are written first if there are none yet (seeded once). */
  private static final String READ_OR_SEED = """
      WITH seed AS (
        INSERT INTO pricing_settings (duration_discounts, platform_fee_bps, tax_bps, cancellation_fee_bps, updated_by)
        VALUES ($1, $2, $3, $4, 'config') ON CONFLICT (id) DO NOTHING RETURNING %1$s)
      SELECT %1$s FROM seed
      UNION ALL SELECT %1$s FROM pricing_settings WHERE NOT EXISTS (SELECT 1 FROM seed)""".formatted(COLUMNS);
  private static final String LOCK = "SELECT " + COLUMNS + " FROM pricing_settings FOR UPDATE";
  private static final String UPDATE = """
      UPDATE pricing_settings SET duration_discounts = $1, platform_fee_bps = $2, tax_bps = $3,
        cancellation_fee_bps = $4, updated_at = now(), updated_by = $5 RETURNING\s""" + COLUMNS;

  private SettingsRepository() {}

  static Future<PriceTerms> readOrSeed(SqlClient client, PriceTerms seed) {
    return client.preparedQuery(READ_OR_SEED).execute(values(seed)).compose(rows -> rows.size() > 0
        ? Future.succeededFuture(terms(rows.iterator().next()))
        // another node seeded at the same moment: its row committed after this statement's snapshot
        : client.preparedQuery(READ_OR_SEED).execute(values(seed)).map(again -> terms(again.iterator().next())));
  }

  /** The stored terms, locked for a change (the caller seeded them before). */
  static Future<PriceTerms> lock(SqlClient tx) {
    return tx.query(LOCK).execute().map(rows -> terms(rows.iterator().next()));
  }

  static Future<PriceTerms> update(SqlClient tx, PriceTerms next, String actor) {
    return tx.preparedQuery(UPDATE).execute(values(next).addString(actor)).map(rows -> terms(rows.iterator().next()));
  }

  /** The discounts as stored: {@code [{"min_hours": 24, "bps": 500}, …]}. */
  static JsonArray discountsJson(List<PricingConfig.DurationDiscount> discounts) {
    JsonArray array = new JsonArray();
    discounts.forEach(d -> array.add(new JsonObject().put("min_hours", d.minHours()).put("bps", d.bps())));
    return array;
  }

  private static Tuple values(PriceTerms terms) {
    return Tuple.of(discountsJson(terms.durationDiscounts()), terms.platformFeeBps(), terms.taxBps(),
        terms.cancellationFeeBps());
  }

  private static PriceTerms terms(Row row) {
    List<PricingConfig.DurationDiscount> discounts = new ArrayList<>();
    JsonArray stored = (JsonArray) row.getValue("duration_discounts");
    stored.forEach(entry -> discounts.add(new PricingConfig.DurationDiscount(((JsonObject) entry).getInteger("min_hours"),
        ((JsonObject) entry).getInteger("bps"))));
    return new PriceTerms(discounts, row.getInteger("platform_fee_bps"), row.getInteger("tax_bps"),
        row.getInteger("cancellation_fee_bps"), row.getOffsetDateTime("updated_at").toInstant(),
        row.getString("updated_by"));
  }
}
