package io.gpurental.gateway.reservations;

import static io.gpurental.gateway.reservations.ReservationStatus.AWAITING_APPROVAL;
import static io.gpurental.gateway.reservations.ReservationStatus.CANCELLED;
import static io.gpurental.gateway.reservations.ReservationStatus.COMPLETED;
import static io.gpurental.gateway.reservations.ReservationStatus.CONFIRMED;
import static io.gpurental.gateway.reservations.ReservationStatus.EXPIRED;
import static io.gpurental.gateway.reservations.ReservationStatus.FAILED;
import static io.gpurental.gateway.reservations.ReservationStatus.PENDING_PAYMENT;
import static io.gpurental.gateway.reservations.ReservationStatus.PROVISIONING;
import static io.gpurental.gateway.reservations.ReservationStatus.RUNNING;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The reservation state machine: which status may follow which. Every status change goes through
 * {@link ReservationRepository#transition}, which refuses anything not listed here.
 *
 * <pre>
 * pending_payment ──paid──▶ confirmed ──start──▶ provisioning ──ready──▶ running ──end──▶ completed
 *      │  └─hold lapsed─▶ expired ─paid late, GPUs still free─▶ confirmed
 *      └─cancel─▶ cancelled ◀─cancel (refund)─ confirmed / provisioning / running ─host failure─▶ failed
 * provisioning ─window over, never ready (full refund)─▶ failed
 * running ─interrupted, not back within the grace (the rest refunded)─▶ failed
 * pending_payment ─over the token's approval threshold (same transaction)─▶ awaiting_approval
 * awaiting_approval ─approved─▶ pending_payment;  ─declined─▶ cancelled;  ─hold lapsed─▶ expired
 * </pre>
 */
public final class Lifecycle {
  private static final Map<ReservationStatus, Set<ReservationStatus>> NEXT = new EnumMap<>(Map.of(
      PENDING_PAYMENT, EnumSet.of(CONFIRMED, EXPIRED, CANCELLED, AWAITING_APPROVAL),
      AWAITING_APPROVAL, EnumSet.of(PENDING_PAYMENT, EXPIRED, CANCELLED),
      EXPIRED, EnumSet.of(CONFIRMED),
      CONFIRMED, EnumSet.of(PROVISIONING, CANCELLED, FAILED, COMPLETED),
      PROVISIONING, EnumSet.of(RUNNING, COMPLETED, CANCELLED, FAILED),
      RUNNING, EnumSet.of(COMPLETED, CANCELLED, FAILED),
      COMPLETED, EnumSet.noneOf(ReservationStatus.class),
      CANCELLED, EnumSet.noneOf(ReservationStatus.class),
      FAILED, EnumSet.noneOf(ReservationStatus.class)));

  private Lifecycle() {}

  public static Set<ReservationStatus> statuses() {
    return NEXT.keySet();
  }

  public static boolean allows(ReservationStatus from, ReservationStatus to) {
    return NEXT.getOrDefault(from, Set.of()).contains(to);
  }
}
