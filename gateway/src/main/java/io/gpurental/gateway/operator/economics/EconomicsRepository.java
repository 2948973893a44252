package io.gpurental.gateway.operator.economics;

import io.gpurental.gateway.operator.economics.EconomicsCalculator.CostSegment;
import io.gpurental.gateway.operator.economics.EconomicsCalculator.HostFacts;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What economics reads, all through the owners' views: offers and list prices (catalog), bookings
 * (reservations), revenue, refunds and fees from the ledger (payments), measured energy (fleet),
 * plus the operator's own host costs, period by period. Money of a payment is attributed to the range by the share
 * of its period inside the range (rounded half up per payment).
 */
final class EconomicsRepository {
  private static final String HOURS = "extract(epoch FROM (%s)) / 3600";
  private static final String HOSTS = """
      WITH range AS (SELECT $1::timestamptz AS lo, $2::timestamptz AS hi),
      booked AS (
        SELECT b.host_id, sum(b.gpu_count * %1$s) AS gpu_hours
        FROM reservation_bookings_view b, range
        WHERE b.booked AND b.period && tstzrange(range.lo, range.hi)
        GROUP BY b.host_id),
      money AS (
        SELECT b.host_id, sum(round(p.revenue * s.share)) AS revenue, sum(round(p.refunds * s.share)) AS refunds,
               sum(round(p.credits * s.share)) AS credits, sum(round(p.card_fee * s.share)) AS card_fees,
               count(*) FILTER (WHERE NOT p.card_fee_known) AS without_fee
        FROM payment_economics_view p
        JOIN reservation_bookings_view b ON b.reservation_id = p.reservation_id
                                        AND b.extension_id IS NOT DISTINCT FROM p.extension_id
        CROSS JOIN range
        CROSS JOIN LATERAL (SELECT extract(epoch FROM (least(upper(b.period), range.hi)
                                                       - greatest(lower(b.period), range.lo)))
                                   / extract(epoch FROM (upper(b.period) - lower(b.period))) AS share) s
        WHERE b.period && tstzrange(range.lo, range.hi)
        GROUP BY b.host_id),
      energy AS (
        SELECT e.host_id, sum(e.energy_wh)::numeric AS wh, sum(least(e.covered_seconds, 3600))::numeric AS seconds
        FROM host_energy_hourly_view e, range
        WHERE e.hour >= range.lo AND e.hour < range.hi AND e.samples > 0 AND e.measured_samples = e.samples
          AND e.energy_wh IS NOT NULL
        GROUP BY e.host_id)
      SELECT h.id, h.name, h.site_id, h.site_name, coalesce(o.gpu_model, h.gpu_model), h.gpu_count, o.offer_id,
             coalesce(o.list_price, 0),
             coalesce(h.gpu_count * greatest(0, extract(epoch FROM (least(range.hi, coalesce(o.closed_at, 'infinity'))
                                                 - greatest(range.lo, o.opened_at))) / 3600), 0) AS available,
             coalesce(booked.gpu_hours, 0), coalesce(money.revenue, 0), coalesce(money.refunds, 0),
             coalesce(money.credits, 0), coalesce(money.card_fees, 0), coalesce(money.without_fee, 0),
             coalesce(energy.wh, 0), coalesce(energy.seconds, 0),
             greatest(0, extract(epoch FROM (least(range.hi, coalesce(o.closed_at, 'infinity'))
                                             - greatest(range.lo, o.opened_at))) / 3600) AS in_service
      FROM fleet_hosts_view h CROSS JOIN range
      LEFT JOIN offer_economics_view o ON o.host_id = h.id
      LEFT JOIN booked ON booked.host_id = h.id
      LEFT JOIN money ON money.host_id = h.id
      LEFT JOIN energy ON energy.host_id = h.id
      WHERE o.offer_id IS NOT NULL OR EXISTS (SELECT 1 FROM host_cost_periods c WHERE c.host_id = h.id)
      ORDER BY h.name""".formatted(
          HOURS.formatted("least(upper(b.period), range.hi) - greatest(lower(b.period), range.lo)"));
  // each cost period's part of the range: its in-service hours (as in_service above) and measured energy
  private static final String COST_SEGMENTS = """
      WITH range AS (SELECT $1::timestamptz AS lo, $2::timestamptz AS hi),
      periods AS (
        SELECT p.*, lead(p.effective_from, 1, 'infinity') OVER (PARTITION BY p.host_id ORDER BY p.effective_from)
                    AS until
        FROM host_cost_periods p),
      parts AS (
        SELECT p.*, greatest(range.lo, p.effective_from) AS part_lo, least(range.hi, p.until) AS part_hi,
               greatest(range.lo, coalesce(o.opened_at, range.lo)) AS service_lo,
               least(range.hi, coalesce(o.closed_at, 'infinity')) AS service_hi
        FROM periods p CROSS JOIN range
        LEFT JOIN offer_economics_view o ON o.host_id = p.host_id
        WHERE p.effective_from < range.hi AND p.until > range.lo)
      SELECT c.host_id,
             greatest(0, extract(epoch FROM (least(c.part_hi, c.service_hi) - greatest(c.part_lo, c.service_lo))))
               / 3600 AS hours,
             coalesce((SELECT sum(e.energy_wh) FROM host_energy_hourly_view e
                       WHERE e.host_id = c.host_id AND e.hour >= c.part_lo AND e.hour < c.part_hi AND e.samples > 0
                         AND e.measured_samples = e.samples AND e.energy_wh IS NOT NULL), 0)::numeric AS wh,
             %s
      FROM parts c ORDER BY c.host_id, c.part_lo""".formatted(HostCostsRepository.COLUMNS);
  private static final String SERIES = """
      WITH range AS (SELECT $1::timestamptz AS lo, $2::timestamptz AS hi),
      days AS (SELECT d AS lo, least(d + interval '1 day', range.hi) AS hi
               FROM range, generate_series(range.lo, range.hi - interval '1 second', interval '1 day') d)
      SELECT days.lo,
        (SELECT coalesce(sum(o.gpu_count * greatest(0, extract(epoch FROM (least(days.hi, coalesce(o.closed_at,
                'infinity')) - greatest(days.lo, o.opened_at))) / 3600)), 0) FROM offer_economics_view o),
        (SELECT coalesce(sum(b.gpu_count * extract(epoch FROM (least(upper(b.period), days.hi)
                - greatest(lower(b.period), days.lo))) / 3600), 0)
         FROM reservation_bookings_view b WHERE b.booked AND b.period && tstzrange(days.lo, days.hi)),
        (SELECT coalesce(sum(round((p.revenue - p.refunds - p.credits)
                * extract(epoch FROM (least(upper(b.period), days.hi) - greatest(lower(b.period), days.lo)))
                / extract(epoch FROM (upper(b.period) - lower(b.period))))), 0)
         FROM payment_economics_view p JOIN reservation_bookings_view b ON b.reservation_id = p.reservation_id
              AND b.extension_id IS NOT DISTINCT FROM p.extension_id
         WHERE b.period && tstzrange(days.lo, days.hi))
      FROM days ORDER BY days.lo""";
  private static final String FIRST_OPENED = "SELECT min(opened_at) FROM offer_economics_view";
  private static final String REFERENCE = """
      SELECT name, hyperscaler_price_minor, hyperscaler_source, specialized_price_minor, specialized_source,
             reference_currency, reference_as_of FROM gpu_model_prices_view""";

  private EconomicsRepository() {}

  /** One host with what it is, where, what it sells, its facts over the range and its cost periods in it. */
  record HostRow(String hostId, String hostName, String siteId, String siteName, String gpuModel, int gpuCount,
      String offerId, HostFacts facts, List<CostSegment> costs) {}

  /** One day of the series: GPU-hours available and booked, and revenue net of refunds and credits. */
  record Day(OffsetDateTime start, BigDecimal availableGpuHours, BigDecimal bookedGpuHours, long netRevenue) {}

  /** A GPU model's reference market prices (null where none is known). */
  record Reference(String gpuModel, Long hyperscaler, String hyperscalerSource, Long specialized,
      String specializedSource, String currency, java.time.LocalDate asOf) {}

  static Future<List<HostRow>> hosts(Pool pool, OffsetDateTime from, OffsetDateTime to) {
    BigDecimal rangeHours = BigDecimal.valueOf(java.time.Duration.between(from, to).toSeconds())
        .divide(BigDecimal.valueOf(3600));
    Tuple range = Tuple.of(from, to);
    Future<RowSet<Row>> parts = pool.preparedQuery(COST_SEGMENTS).execute(range);
    Future<RowSet<Row>> hostRows = pool.preparedQuery(HOSTS).execute(range);
    return Future.all(parts, hostRows).map(both -> {
      Map<String, List<CostSegment>> segments = new HashMap<>();
      parts.result().forEach(r -> segments.computeIfAbsent(r.getString(0), id -> new ArrayList<>())
          .add(new CostSegment(r.getBigDecimal(1), r.getBigDecimal(2), HostCostsRepository.stored(r, 3).costs())));
      List<HostRow> hosts = new ArrayList<>();
      for (Row r : hostRows.result()) {
        // a host costs from the hour its offer opened (or the range's start) to its close (or end)
        BigDecimal inService = r.getBigDecimal(17);
        HostFacts facts = new HostFacts(inService == null ? rangeHours : inService, r.getBigDecimal(8),
            r.getBigDecimal(9), r.getLong(7), r.getLong(10), r.getLong(11), r.getLong(12), r.getLong(13),
            r.getInteger(14), r.getBigDecimal(15), r.getBigDecimal(16));
        hosts.add(new HostRow(r.getString(0), r.getString(1), r.getString(2), r.getString(3), r.getString(4),
            r.getInteger(5), r.getString(6), facts, segments.getOrDefault(r.getString(0), List.of())));
      }
      return hosts;
    });
  }

  /** When the first offer opened (null: none ever did). */
  static Future<OffsetDateTime> firstOpened(Pool pool) {
    return pool.query(FIRST_OPENED).execute().map(rows -> rows.iterator().next().getOffsetDateTime(0));
  }

  static Future<List<Day>> series(Pool pool, OffsetDateTime from, OffsetDateTime to) {
    return pool.preparedQuery(SERIES).execute(Tuple.of(from, to)).map(rows -> {
      List<Day> days = new ArrayList<>();
      rows.forEach(r -> days.add(new Day(r.getOffsetDateTime(0), r.getBigDecimal(1), r.getBigDecimal(2),
          r.getLong(3))));
      return days;
    });
  }

  static Future<List<Reference>> references(Pool pool) {
    return pool.query(REFERENCE).execute().map(rows -> {
      List<Reference> list = new ArrayList<>();
      rows.forEach(r -> list.add(new Reference(r.getString(0), r.getLong(1), r.getString(2), r.getLong(3),
          r.getString(4), r.getString(5) == null ? null : r.getString(5).trim(), r.getLocalDate(6))));
      return list;
    });
  }
}
