package io.gpurental.gateway.reservations;

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
 * </pre>
 */
public final class Lifecycle {
  public static final String PENDING_PAYMENT = "pending_payment";
  public static final String CONFIRMED = "confirmed";
  public static final String PROVISIONING = "provisioning";
  public static final String RUNNING = "running";
  public static final String COMPLETED = "completed";
  public static final String EXPIRED = "expired";
  public static final String CANCELLED = "cancelled";
  public static final String FAILED = "failed";

  private static final Map<String, Set<String>> NEXT = Map.of(
      PENDING_PAYMENT, Set.of(CONFIRMED, EXPIRED, CANCELLED),
      EXPIRED, Set.of(CONFIRMED),
      CONFIRMED, Set.of(PROVISIONING, CANCELLED, FAILED, COMPLETED),
      PROVISIONING, Set.of(RUNNING, COMPLETED, CANCELLED, FAILED),
      RUNNING, Set.of(COMPLETED, CANCELLED, FAILED),
      COMPLETED, Set.of(),
      CANCELLED, Set.of(),
      FAILED, Set.of());

  /** Paid and not over: the renter has (or will have) the GPUs. */
  public static final Set<String> PAID_AND_LIVE = Set.of(CONFIRMED, PROVISIONING, RUNNING);

  private Lifecycle() {}

  public static Set<String> statuses() {
    return NEXT.keySet();
  }

  public static boolean allows(String from, String to) {
    return NEXT.getOrDefault(from, Set.of()).contains(to);
  }
}
