package io.gpurental.gateway.operator.economics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gpurental.gateway.operator.economics.EconomicsCalculator.CostSegment;
import io.gpurental.gateway.operator.economics.EconomicsCalculator.Costs;
import io.gpurental.gateway.operator.economics.EconomicsCalculator.HostFacts;
import io.gpurental.gateway.operator.economics.EconomicsCalculator.Payback;
import io.gpurental.gateway.operator.economics.EconomicsCalculator.Totals;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Payback of a 100 000 server depreciated over 10 months (10 000 a month) with no other costs, so
 * its contribution is its revenue: the range is one month (730 h) earning 10 000.
 */
class PaybackTest {
  private static final Costs SERVER = new Costs(100_000, 10, 0, 0, BigDecimal.ONE, 0, 0, 0, null);
  private static final Totals ONE_MONTH = totals(730, 10_000);

  @Test
  void monthsToPaybackCountWhatIsStillUnpaidAtTheRangesPace() {
    Payback payback = EconomicsCalculator.payback(ONE_MONTH, totals(4 * 730, 40_000));
    assertEquals(10_000, payback.contribution());
    assertEquals(1_000, payback.progressBps());
    assertEquals(40_000, payback.contributionToDate());
    assertEquals(4_000, payback.progressToDateBps());
    assertEquals(new BigDecimal("6.0"), payback.monthsToPayback(), "60 000 unpaid at 10 000 a month");
  }

  @Test
  void paidBackHardwareHasNoMonthsLeftAndALossNeverPaysBack() {
    assertEquals(new BigDecimal("0.0"), EconomicsCalculator.payback(ONE_MONTH, totals(12 * 730, 120_000))
        .monthsToPayback());
    assertEquals(12_000, EconomicsCalculator.payback(ONE_MONTH, totals(12 * 730, 120_000)).progressToDateBps());
    assertNull(EconomicsCalculator.payback(totals(730, 0), totals(4 * 730, 40_000)).monthsToPayback());
  }

  @Test
  void withoutToDateTotalsOnlyTheRangesFiguresAreGiven() {
    Payback payback = EconomicsCalculator.payback(ONE_MONTH, null);
    assertEquals(1_000, payback.progressBps());
    assertNull(payback.contributionToDate());
    assertNull(payback.progressToDateBps());
    assertNull(payback.monthsToPayback());
  }

  private static Totals totals(int hours, long revenue) {
    BigDecimal h = BigDecimal.valueOf(hours);
    return EconomicsCalculator.host(new HostFacts(h, h, h, 100, revenue, 0, 0, 0, 0, BigDecimal.ZERO,
        BigDecimal.ZERO), List.of(new CostSegment(h, BigDecimal.ZERO, SERVER)));
  }
}
