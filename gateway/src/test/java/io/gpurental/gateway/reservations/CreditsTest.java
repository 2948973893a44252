package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The credit policy's arithmetic: started hours, at the hourly rate paid, capped at what is kept. */
class CreditsTest {
  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
  private static final Instant END = START.plus(Duration.ofHours(10));

  @Test
  void everyStartedHourCountsWhole() {
    assertEquals(0, Credits.startedHours(START, START));
    assertEquals(1, Credits.startedHours(START, START.plusSeconds(1)));
    assertEquals(1, Credits.startedHours(START, START.plus(Duration.ofMinutes(60))));
    assertEquals(2, Credits.startedHours(START, START.plus(Duration.ofMinutes(61))));
    assertEquals(0, Credits.startedHours(START, START.minusSeconds(5)), "never negative");
  }

  @Test
  void hoursAreWorthTheCapturedAmountProRataAndNeverMoreThanIsKept() {
    // 10 h for $100.00: an hour is $10.00; the host fails 2 h 30 min in: 8 started hours = $80.00
    CreditRepository.Basis paid = basis(10_000, 10_000);
    assertEquals(1_000, Credits.amountFor(paid, 1));
    assertEquals(8_000, Credits.amountFor(paid, Credits.startedHours(START.plus(Duration.ofMinutes(150)), END)));
    assertEquals(10_000, Credits.amountFor(paid, 12), "no more hours than the window has");
    assertEquals(0, Credits.amountFor(paid, 0));
    // $30.00 already credited: the rest of the window is worth $80.00, but only $70.00 is left
    assertEquals(7_000, Credits.amountFor(basis(10_000, 7_000), 8));
    // $10.30 for 2 h: 5.15 an hour (the integer division rounds down by under a cent)
    assertEquals(515, Credits.amountFor(new CreditRepository.Basis(ReservationStatus.RUNNING, "acc", "usd", START,
        START.plus(Duration.ofHours(2)), START, null, null, 1030, 1030), 1));
  }

  @Test
  void readyCreditsAndDowntimeCreditsAreToldApartInTheLedger() {
    assertEquals("ready_credit", Credits.refundReason(Credits.READY_LATE));
    assertEquals("ready_credit", Credits.refundReason(Credits.NEVER_READY));
    assertEquals("downtime_credit", Credits.refundReason(Credits.DOWNTIME));
    assertEquals("downtime_credit", Credits.refundReason(Credits.HOST_FAILED));
  }

  private static CreditRepository.Basis basis(long captured, long kept) {
    return new CreditRepository.Basis(ReservationStatus.RUNNING, "acc", "usd", START, END, START, null, null, captured,
        kept);
  }
}
