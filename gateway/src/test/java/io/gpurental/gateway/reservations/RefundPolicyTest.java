package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The cancellation policy on fixed cases: amounts a renter can check by hand. */
class RefundPolicyTest {
  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
  private static final Instant END = START.plus(Duration.ofHours(10));
  private final RefundPolicy tenPercent = new RefundPolicy(1000);

  @Test
  void beforeTheStartEverythingComesBack() {
    assertEquals(new RefundPolicy.Refund(10_000, 0, 10), tenPercent.refundFor(10_000, START, END, START.minusSeconds(1)));
    assertEquals(new RefundPolicy.Refund(10_000, 0, 10),
        tenPercent.refundFor(10_000, START, END, START.minus(Duration.ofDays(3))));
  }

  @Test
  void afterTheStartTheUnusedWholeHoursComeBackMinusTheFee() {
    // 10 h for $100.00; cancelled 2 h 30 min in: 7 whole hours unused = $70.00, fee 10 % = $7.00
    assertEquals(new RefundPolicy.Refund(6_300, 700, 7),
        tenPercent.refundFor(10_000, START, END, START.plus(Duration.ofMinutes(150))));
    // exactly at the start: all 10 whole hours are unused, so only the fee is withheld
    assertEquals(new RefundPolicy.Refund(9_000, 1_000, 10), tenPercent.refundFor(10_000, START, END, START));
    // in the last hour nothing whole is left
    assertEquals(new RefundPolicy.Refund(0, 0, 0),
        tenPercent.refundFor(10_000, START, END, END.minus(Duration.ofMinutes(59))));
  }

  @Test
  void amountsRoundDownInTheOperatorsFavourByLessThanACent() {
    // 3 h for $10.00, 2 h unused: 666.67 -> 666, fee 66.6 -> 66
    assertEquals(new RefundPolicy.Refund(600, 66, 2),
        tenPercent.refundFor(1_000, START, START.plus(Duration.ofHours(3)), START.plus(Duration.ofMinutes(30))));
  }

  @Test
  void nothingOnceTheWindowIsOverOrWhenNothingWasPaid() {
    assertEquals(new RefundPolicy.Refund(0, 0, 0), tenPercent.refundFor(10_000, START, END, END));
    assertEquals(new RefundPolicy.Refund(0, 0, 0), tenPercent.refundFor(0, START, END, START.minusSeconds(60)));
  }

  @Test
  void aZeroFeeRefundsTheUnusedHoursInFullAndThePolicySaysSo() {
    RefundPolicy free = new RefundPolicy(0);
    assertEquals(new RefundPolicy.Refund(5_000, 0, 5), free.refundFor(10_000, START, END, START.plus(Duration.ofHours(5))));
    assertTrue(tenPercent.describe().contains("10 % cancellation fee"), tenPercent.describe());
    assertTrue(!free.describe().contains("fee;"), free.describe());
  }
}
