package io.gpurental.gateway.operator.economics;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;

/**
 * Every economics formula, once (docs/operating.md "Economics" documents the same). Money is in
 * integer minor units; each money figure is rounded half up to the minor unit once, where it is
 * made; ratios are basis points (1 % = 100 bps).
 */
public final class EconomicsCalculator {
  /** A month for prorating monthly costs: 365 × 24 ÷ 12 hours. */
  public static final BigDecimal HOURS_PER_MONTH = BigDecimal.valueOf(730);
  private static final MathContext PRECISION = MathContext.DECIMAL64;

  private EconomicsCalculator() {}

  /** What the operator entered for one host (money in minor units). */
  public record Costs(long purchasePrice, int depreciationMonths, long residualValue, long electricityPerKwh,
      BigDecimal pue, long colocationPerMonth, long bandwidthPerMonth, long maintenancePerMonth,
      Long financingPerMonth) {
    long monthly() {
      return colocationPerMonth + bandwidthPerMonth + maintenancePerMonth
          + (financingPerMonth == null ? 0 : financingPerMonth);
    }
  }

  /** One cost period's part of the range: the host's in-service hours and measured energy in it. */
  public record CostSegment(BigDecimal hours, BigDecimal measuredWh, Costs costs) {}

  /** One host's measured facts over the range, before its costs are applied. */
  public record HostFacts(BigDecimal rangeHours, BigDecimal availableGpuHours, BigDecimal bookedGpuHours,
      long listPrice, long revenue, long refunds, long credits, long cardFees, int paymentsWithoutFee,
      BigDecimal measuredWh, BigDecimal coveredSeconds) {}

  /** Additive totals of one host or a group of hosts; every figure is derived from these. */
  public record Totals(int hosts, int hostsWithoutCosts, BigDecimal rangeHours, BigDecimal availableGpuHours,
      BigDecimal bookedGpuHours, BigDecimal listPriceGpuHours, long revenue, long refunds, long credits,
      long cardFees, int paymentsWithoutFee, BigDecimal itKwh, BigDecimal facilityKwh, long energyCost,
      BigDecimal coveredHours, BigDecimal missingHours, long otherCosts, long depreciation, long purchasePrice,
      long depreciable, BigDecimal uncostedHours) {
    static final Totals ZERO = new Totals(0, 0, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO,
        0, 0, 0, 0, 0, BigDecimal.ZERO, BigDecimal.ZERO, 0, BigDecimal.ZERO, BigDecimal.ZERO, 0, 0, 0, 0,
        BigDecimal.ZERO);

    /** The sum of two groups (host-hours of telemetry add up like the hours of each host). */
    public Totals plus(Totals o) {
      return new Totals(hosts + o.hosts, hostsWithoutCosts + o.hostsWithoutCosts, rangeHours.max(o.rangeHours),
          availableGpuHours.add(o.availableGpuHours), bookedGpuHours.add(o.bookedGpuHours),
          listPriceGpuHours.add(o.listPriceGpuHours), revenue + o.revenue, refunds + o.refunds, credits + o.credits,
          cardFees + o.cardFees, paymentsWithoutFee + o.paymentsWithoutFee, itKwh.add(o.itKwh),
          facilityKwh.add(o.facilityKwh), energyCost + o.energyCost, coveredHours.add(o.coveredHours),
          missingHours.add(o.missingHours), otherCosts + o.otherCosts, depreciation + o.depreciation,
          purchasePrice + o.purchasePrice, depreciable + o.depreciable, uncostedHours.add(o.uncostedHours));
    }
  }

  /** The derived figures of a group. Nulls where a ratio has no denominator (no revenue, no hours). */
  public record Figures(Totals totals, Integer utilizationBps, Long listPrice, Long effectiveRate, long netMargin,
      Integer marginBps, Integer breakEvenUtilizationBps, Payback payback) {}

  /**
   * How far the hardware is paid back: the range's contribution (net margin + depreciation) and
   * the contribution from the hour the host joined the fleet to the range's end ("to date"), each
   * as a share of the purchase price; months to payback = what is still unpaid ÷ the range's
   * contribution per month. The to-date figures are null where they were not computed.
   */
  public record Payback(long contribution, Integer progressBps, Long contributionToDate, Integer progressToDateBps,
      BigDecimal monthsToPayback) {}

  /**
   * A host's totals, summed over the cost periods in the range, each money figure rounded once:
   * energy cost = measured kWh × PUE × price per kWh; other costs = the monthly costs × hours ÷
   * 730; depreciation = (purchase − residual) ÷ months, prorated the same way. The purchase price
   * (for payback) is the latest period's. A host without a cost period in the range has none;
   * hours of the range before a host's first period carry none ({@code uncostedHours}).
   */
  public static Totals host(HostFacts facts, List<CostSegment> segments) {
    BigDecimal itKwh = facts.measuredWh().divide(BigDecimal.valueOf(1000), PRECISION);
    BigDecimal covered = facts.coveredSeconds().divide(BigDecimal.valueOf(3600), PRECISION);
    BigDecimal missing = facts.rangeHours().subtract(covered).max(BigDecimal.ZERO);
    BigDecimal listGpuHours = facts.availableGpuHours().multiply(BigDecimal.valueOf(facts.listPrice()));
    if (segments.isEmpty()) {
      return new Totals(1, 1, facts.rangeHours(), facts.availableGpuHours(), facts.bookedGpuHours(), listGpuHours,
          facts.revenue(), facts.refunds(), facts.credits(), facts.cardFees(), facts.paymentsWithoutFee(), itKwh,
          BigDecimal.ZERO, 0, covered, missing, 0, 0, 0, 0, BigDecimal.ZERO);
    }
    BigDecimal facilityKwh = BigDecimal.ZERO;
    BigDecimal energyCost = BigDecimal.ZERO;
    BigDecimal other = BigDecimal.ZERO;
    BigDecimal depreciation = BigDecimal.ZERO;
    for (CostSegment segment : segments) {
      Costs costs = segment.costs();
      BigDecimal kwh = segment.measuredWh().divide(BigDecimal.valueOf(1000), PRECISION)
          .multiply(costs.pue(), PRECISION);
      facilityKwh = facilityKwh.add(kwh);
      energyCost = energyCost.add(kwh.multiply(BigDecimal.valueOf(costs.electricityPerKwh())));
      BigDecimal months = segment.hours().divide(HOURS_PER_MONTH, PRECISION);
      other = other.add(BigDecimal.valueOf(costs.monthly()).multiply(months));
      depreciation = depreciation.add(BigDecimal.valueOf(costs.purchasePrice() - costs.residualValue())
          .multiply(segment.hours()).divide(BigDecimal.valueOf(costs.depreciationMonths()).multiply(HOURS_PER_MONTH),
              PRECISION));
    }
    Costs latest = segments.get(segments.size() - 1).costs();
    BigDecimal costedHours = segments.stream().map(CostSegment::hours).reduce(BigDecimal.ZERO, BigDecimal::add);
    return new Totals(1, 0, facts.rangeHours(), facts.availableGpuHours(), facts.bookedGpuHours(), listGpuHours,
        facts.revenue(), facts.refunds(), facts.credits(), facts.cardFees(), facts.paymentsWithoutFee(), itKwh,
        facilityKwh, money(energyCost), covered, missing, money(other), money(depreciation), latest.purchasePrice(),
        latest.purchasePrice() - latest.residualValue(), facts.rangeHours().subtract(costedHours).max(BigDecimal.ZERO));
  }

  /** Everything the operator reads about a group; {@code toDate}: its totals since it joined (null: unknown). */
  public static Figures figures(Totals t, Totals toDate) {
    long costs = costs(t);
    long netMargin = t.revenue() - costs;
    Integer utilization = bps(t.bookedGpuHours(), t.availableGpuHours());
    Long listPrice = t.availableGpuHours().signum() == 0 ? null
        : money(t.listPriceGpuHours().divide(t.availableGpuHours(), PRECISION));
    Long effectiveRate = t.bookedGpuHours().signum() == 0 ? null
        : money(BigDecimal.valueOf(t.revenue()).divide(t.bookedGpuHours(), PRECISION));
    Integer margin = t.revenue() == 0 ? null : bps(BigDecimal.valueOf(netMargin), BigDecimal.valueOf(t.revenue()));
    // revenue grows with utilization at the effective rate; costs are taken as they are
    Integer breakEven = t.revenue() <= 0 || t.bookedGpuHours().signum() == 0 ? null
        : bps(t.bookedGpuHours().multiply(BigDecimal.valueOf(costs)),
            t.availableGpuHours().multiply(BigDecimal.valueOf(t.revenue())));
    return new Figures(t, utilization, listPrice, effectiveRate, netMargin, margin, breakEven, payback(t, toDate));
  }

  static Payback payback(Totals t, Totals toDate) {
    long contribution = contribution(t);
    Long toDateContribution = toDate == null ? null : contribution(toDate);
    BigDecimal purchase = BigDecimal.valueOf(t.purchasePrice());
    Integer progress = t.purchasePrice() == 0 ? null : bps(BigDecimal.valueOf(contribution), purchase);
    Integer progressToDate = t.purchasePrice() == 0 || toDate == null ? null
        : bps(BigDecimal.valueOf(toDateContribution), purchase);
    BigDecimal monthsLeft = null;
    if (t.purchasePrice() > 0 && toDate != null && toDateContribution >= t.purchasePrice()) {
      monthsLeft = BigDecimal.ZERO.setScale(1);
    } else if (t.purchasePrice() > 0 && toDate != null && contribution > 0 && t.rangeHours().signum() > 0) {
      monthsLeft = BigDecimal.valueOf(t.purchasePrice() - toDateContribution).multiply(t.rangeHours())
          .divide(BigDecimal.valueOf(contribution).multiply(HOURS_PER_MONTH), 1, RoundingMode.HALF_UP);
    }
    return new Payback(contribution, progress, toDateContribution, progressToDate, monthsLeft);
  }

  /** What the hardware earned: net margin + depreciation (depreciation is the hardware's own cost). */
  static long contribution(Totals t) {
    return t.revenue() - costs(t) + t.depreciation();
  }

  /** Refunds, credits, card fees, energy, other costs and depreciation: what revenue must cover. */
  public static long costs(Totals t) {
    return t.refunds() + t.credits() + t.cardFees() + t.energyCost() + t.otherCosts() + t.depreciation();
  }

  /** The price per GPU-hour at which the booked hours would just cover the costs (rounded up). */
  public static Long breakEvenPrice(Totals t) {
    return priceFor(t, 0);
  }

  /**
   * The price per GPU-hour for a margin of {@code marginBps} of revenue at the same booked hours
   * and costs: costs ÷ (booked GPU-hours × (1 − margin)), rounded up to the minor unit.
   */
  public static Long priceFor(Totals t, int marginBps) {
    if (t.bookedGpuHours().signum() == 0 || marginBps >= 10_000) {
      return null;
    }
    BigDecimal share = BigDecimal.valueOf(10_000 - marginBps).divide(BigDecimal.valueOf(10_000), PRECISION);
    return BigDecimal.valueOf(costs(t)).divide(t.bookedGpuHours().multiply(share), PRECISION)
        .setScale(0, RoundingMode.CEILING).longValueExact();
  }

  static long money(BigDecimal amount) {
    return amount.setScale(0, RoundingMode.HALF_UP).longValueExact();
  }

  private static Integer bps(BigDecimal part, BigDecimal whole) {
    return whole.signum() == 0 ? null
        : part.multiply(BigDecimal.valueOf(10_000)).divide(whole, 0, RoundingMode.HALF_UP).intValueExact();
  }
}
