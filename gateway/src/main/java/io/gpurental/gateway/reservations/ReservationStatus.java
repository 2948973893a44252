package io.gpurental.gateway.reservations;

import java.util.Arrays;

/** Where a reservation is in its lifecycle; {@link Lifecycle} says which may follow which. */
public enum ReservationStatus {
  PENDING_PAYMENT, AWAITING_APPROVAL, CONFIRMED, PROVISIONING, RUNNING, COMPLETED, EXPIRED, CANCELLED, FAILED;

  /** The name in the API and in PostgreSQL: {@code pending_payment}, {@code running}, … */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  public static ReservationStatus of(String id) {
    return Arrays.stream(values()).filter(status -> status.id().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no reservation status '" + id + "'"));
  }

  /** Paid and not over: the renter has (or will have) the GPUs. */
  public boolean paidAndLive() {
    return this == CONFIRMED || this == PROVISIONING || this == RUNNING;
  }

  @Override
  public String toString() {
    return id();
  }
}
