package io.gpurental.gateway.operator.economics;

import io.gpurental.gateway.operator.economics.EconomicsCalculator.Costs;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The operator's costs per host over time ({@code host_cost_periods}, owned by operator): each
 * period applies from its hour (null: since the host joined) until the host's next period.
 */
final class HostCostsRepository {
  /** A period's columns, from alias {@code c}, in the order {@link #stored} reads them. */
  static final String COLUMNS = "c.currency, c.purchase_price, c.depreciation_months, c.residual_value,"
      + " c.electricity_price_per_kwh, c.pue, c.colocation_per_month, c.bandwidth_per_month,"
      + " c.maintenance_per_month, c.financing_per_month, c.updated_at, c.updated_by,"
      + " CASE WHEN isfinite(c.effective_from) THEN c.effective_from END";
  private static final String HISTORY = "SELECT " + COLUMNS
      + " FROM host_cost_periods c WHERE c.host_id = $1 ORDER BY c.effective_from DESC";
  private static final String IN_EFFECT = "SELECT " + COLUMNS + " FROM host_cost_periods c"
      + " WHERE c.host_id = $1 AND c.effective_from <= coalesce($2, '-infinity'::timestamptz)"
      + " ORDER BY c.effective_from DESC LIMIT 1";
  // one writer per host at a time, also before its first period exists
  private static final String LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('host_cost_periods:' || $1, 0))";
  private static final String HOST = "SELECT 1 FROM fleet_hosts_view WHERE id = $1";
  private static final String UPSERT = """
      INSERT INTO host_cost_periods (host_id, effective_from, currency, purchase_price, depreciation_months,
                                     residual_value, electricity_price_per_kwh, pue, colocation_per_month,
                                     bandwidth_per_month, maintenance_per_month, financing_per_month, updated_by)
      VALUES ($1, coalesce($13, '-infinity'::timestamptz), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
      ON CONFLICT (host_id, effective_from) DO UPDATE SET currency = $2, purchase_price = $3,
        depreciation_months = $4, residual_value = $5, electricity_price_per_kwh = $6, pue = $7,
        colocation_per_month = $8, bandwidth_per_month = $9, maintenance_per_month = $10,
        financing_per_month = $11, updated_by = $12, updated_at = now()""";

  private HostCostsRepository() {}

  /** One period of a host's costs, with who set it when; {@code effectiveFrom} null: since the host joined. */
  record Stored(String currency, Costs costs, OffsetDateTime effectiveFrom, OffsetDateTime updatedAt,
      String updatedBy) {}

  static Future<Boolean> hostExists(SqlClient client, String hostId) {
    return client.preparedQuery(HOST).execute(Tuple.of(hostId)).map(rows -> rows.size() > 0);
  }

  /** Every period of the host, the newest (the one in effect now) first. */
  static Future<List<Stored>> history(SqlClient client, String hostId) {
    return client.preparedQuery(HISTORY).execute(Tuple.of(hostId)).map(rows -> {
      List<Stored> periods = new ArrayList<>();
      rows.forEach(row -> periods.add(stored(row, 0)));
      return periods;
    });
  }

  static Future<Void> lock(SqlClient tx, String hostId) {
    return tx.preparedQuery(LOCK).execute(Tuple.of(hostId)).mapEmpty();
  }

  /** The period in effect at {@code at} (null: since the host joined), if any. */
  static Future<Optional<Stored>> inEffect(SqlClient client, String hostId, OffsetDateTime at) {
    return client.preparedQuery(IN_EFFECT).execute(Tuple.of(hostId, at))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(stored(rows.iterator().next(), 0)));
  }

  /** Enters or replaces the period starting at {@code effectiveFrom} (null: since the host joined). */
  static Future<Void> put(SqlClient tx, String hostId, String currency, Costs c, OffsetDateTime effectiveFrom,
      String actor) {
    return tx.preparedQuery(UPSERT).execute(Tuple.from(new Object[] {hostId, currency, c.purchasePrice(),
        c.depreciationMonths(), c.residualValue(), c.electricityPerKwh(), c.pue(), c.colocationPerMonth(),
        c.bandwidthPerMonth(), c.maintenancePerMonth(), c.financingPerMonth(), actor, effectiveFrom})).mapEmpty();
  }

  /** The period in a row whose cost columns start at {@code at} (in {@link #COLUMNS} order). */
  static Stored stored(Row row, int at) {
    Costs costs = new Costs(row.getLong(at + 1), row.getInteger(at + 2), row.getLong(at + 3), row.getLong(at + 4),
        row.getBigDecimal(at + 5), row.getLong(at + 6), row.getLong(at + 7), row.getLong(at + 8),
        row.getLong(at + 9));
    return new Stored(row.getString(at).trim(), costs, row.getOffsetDateTime(at + 12), row.getOffsetDateTime(at + 10),
        row.getString(at + 11));
  }
}
