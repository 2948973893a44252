package io.gpurental.gateway.operator.economics;

import io.gpurental.gateway.operator.economics.EconomicsCalculator.Costs;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.Optional;

/** The operator's costs per host ({@code host_costs}, owned by operator). */
final class HostCostsRepository {
  static final String COLUMNS = "c.currency, c.purchase_price, c.depreciation_months, c.residual_value,"
      + " c.electricity_price_per_kwh, c.pue, c.colocation_per_month, c.bandwidth_per_month,"
      + " c.maintenance_per_month, c.financing_per_month, c.updated_at, c.updated_by";
  private static final String GET = "SELECT " + COLUMNS + " FROM host_costs c WHERE c.host_id = $1";
  private static final String LOCK = "SELECT " + COLUMNS + " FROM host_costs c WHERE c.host_id = $1 FOR UPDATE";
  private static final String HOST = "SELECT 1 FROM fleet_hosts_view WHERE id = $1";
  private static final String UPSERT = """
      INSERT INTO host_costs (host_id, currency, purchase_price, depreciation_months, residual_value,
                              electricity_price_per_kwh, pue, colocation_per_month, bandwidth_per_month,
                              maintenance_per_month, financing_per_month, updated_by)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
      ON CONFLICT (host_id) DO UPDATE SET currency = $2, purchase_price = $3, depreciation_months = $4,
        residual_value = $5, electricity_price_per_kwh = $6, pue = $7, colocation_per_month = $8,
        bandwidth_per_month = $9, maintenance_per_month = $10, financing_per_month = $11, updated_by = $12,
        updated_at = now()""";

  private HostCostsRepository() {}

  /** A host's costs as stored, with who set them when. */
  record Stored(String currency, Costs costs, OffsetDateTime updatedAt, String updatedBy) {}

  static Future<Boolean> hostExists(SqlClient client, String hostId) {
    return client.preparedQuery(HOST).execute(Tuple.of(hostId)).map(rows -> rows.size() > 0);
  }

  static Future<Optional<Stored>> get(SqlClient client, String hostId, boolean lock) {
    return client.preparedQuery(lock ? LOCK : GET).execute(Tuple.of(hostId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(stored(rows.iterator().next(), 0)));
  }

  static Future<Void> put(SqlClient tx, String hostId, String currency, Costs c, String actor) {
    return tx.preparedQuery(UPSERT).execute(Tuple.from(new Object[] {hostId, currency, c.purchasePrice(),
        c.depreciationMonths(), c.residualValue(), c.electricityPerKwh(), c.pue(), c.colocationPerMonth(),
        c.bandwidthPerMonth(), c.maintenancePerMonth(), c.financingPerMonth(), actor})).mapEmpty();
  }

  /** The stored costs in a row whose cost columns start at {@code at} (in {@link #COLUMNS} order); null when none. */
  static Stored stored(Row row, int at) {
    if (row.getValue(at) == null) {
      return null;
    }
    Costs costs = new Costs(row.getLong(at + 1), row.getInteger(at + 2), row.getLong(at + 3), row.getLong(at + 4),
        row.getBigDecimal(at + 5), row.getLong(at + 6), row.getLong(at + 7), row.getLong(at + 8),
        row.getLong(at + 9));
    return new Stored(row.getString(at).trim(), costs, row.getOffsetDateTime(at + 10), row.getString(at + 11));
  }
}
