package io.gpurental.gateway.reservations;

import java.time.Duration;
import java.time.Instant;

/**
 * What cancelling a paid reservation gives back: everything before the start; after it, the
 * unused whole hours (pro rata of what was paid) minus a fee in basis points of that amount;
 * nothing once the window is over. Amounts are integer minor units, rounded down in the
 * operator's favour by at most one unit.
 */
public record RefundPolicy(int feeBps) {

  /**
   * The policy a reservation was booked under: the cancellation fee its quote carried, or (booked
   * before quotes carried one) this, the configured one.
   */
  public RefundPolicy bookedWith(Integer quotedFeeBps) {
    return quotedFeeBps == null ? this : new RefundPolicy(quotedFeeBps);
  }

  /** The refund and the fee withheld, for cancelling at {@code now}. */
  public record Refund(long amount, long fee, int unusedHours) {}

  public Refund refundFor(long paid, Instant start, Instant end, Instant now) {
    long totalHours = Duration.between(start, end).toHours();
    if (paid <= 0 || totalHours <= 0 || !now.isBefore(end)) {
      return new Refund(0, 0, 0);
    }
    if (now.isBefore(start)) {
      return new Refund(paid, 0, (int) totalHours);
    }
    long unused = Duration.between(now, end).toHours();
    long unusedValue = Math.multiplyExact(paid, unused) / totalHours;
    long fee = Math.multiplyExact(unusedValue, feeBps) / 10_000;
    return new Refund(unusedValue - fee, fee, (int) unused);
  }

  /** The policy in words, as quotes and the UI show it before booking. */
  public String describe() {
    String fee = feeBps % 100 == 0 ? String.valueOf(feeBps / 100) : String.valueOf(feeBps / 100.0);
    return "Cancel before the start for a full refund. After the start, the unused whole hours are refunded"
        + (feeBps == 0 ? "" : " minus a " + fee + " % cancellation fee") + "; hours already begun are not."
        + " Downtime is credited automatically. If your instance's own process ends it (its command"
        + " exits, you end its init, it runs out of its memory), it ends as if you cancelled at that moment.";
  }
}
