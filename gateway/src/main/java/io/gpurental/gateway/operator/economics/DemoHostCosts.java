package io.gpurental.gateway.operator.economics;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.math.BigDecimal;
import java.util.List;

/**
 * The sandbox demo fleet's host costs, so the demo's Economics and Prices pages show break-even
 * prices and margins instead of "no costs entered". Plausible 2026 figures in minor units of the
 * gateway's currency: list prices of the servers less a residual after 3-4 years, local
 * electricity (dear in Frankfurt, cheap hydro in Oslo), PUE, colocation, bandwidth and support;
 * at the demo prices each host breaks even at roughly 50-70 % utilization. Seeding is idempotent
 * and never overwrites costs an operator entered (insert only where a host has none).
 */
public final class DemoHostCosts {
  private static final String SEED = """
      INSERT INTO host_cost_periods (host_id, effective_from, currency, purchase_price, depreciation_months,
                                     residual_value, electricity_price_per_kwh, pue, colocation_per_month,
                                     bandwidth_per_month, maintenance_per_month, financing_per_month, updated_by)
      SELECT $1, '-infinity', $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, 'demo-fleet'
      WHERE EXISTS (SELECT 1 FROM fleet_hosts_view WHERE id = $1)
        AND NOT EXISTS (SELECT 1 FROM host_cost_periods WHERE host_id = $1)
      ON CONFLICT (host_id, effective_from) DO NOTHING""";

  /** One demo host's costs; money in minor units, per month where it says so. */
  record Entry(String hostId, long purchase, int months, long residual, long perKwh, String pue, long colocation,
      long bandwidth, long maintenance) {}

  static final List<Entry> ENTRIES = List.of(
      new Entry("host_nyc_h200_01", 33_000_000, 48, 6_000_000, 15, "1.30", 240_000, 30_000, 80_000),
      new Entry("host_nyc_h100_01", 25_000_000, 48, 4_000_000, 15, "1.30", 240_000, 30_000, 70_000),
      new Entry("host_fra_a100_01", 6_000_000, 48, 500_000, 22, "1.40", 60_000, 15_000, 25_000),
      new Entry("host_fra_l40s_01", 9_000_000, 48, 1_500_000, 22, "1.40", 90_000, 15_000, 30_000),
      new Entry("host_osl_4090_01", 1_200_000, 36, 200_000, 8, "1.15", 30_000, 5_000, 5_000),
      new Entry("host_osl_5090_01", 900_000, 36, 150_000, 8, "1.15", 20_000, 5_000, 5_000));

  private DemoHostCosts() {}

  /** Stores the demo hosts' costs where none are entered yet (sandbox mode, after the demo hosts). */
  public static Future<Void> seed(Pool pool, String currency) {
    return pool.preparedQuery(SEED).executeBatch(ENTRIES.stream().map(e -> Tuple.from(new Object[] {e.hostId(),
        currency, e.purchase(), e.months(), e.residual(), e.perKwh(), new BigDecimal(e.pue()), e.colocation(),
        e.bandwidth(), e.maintenance()})).toList()).mapEmpty();
  }
}
