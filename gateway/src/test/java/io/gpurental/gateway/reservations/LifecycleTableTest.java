package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The state machine allows exactly the documented moves and nothing else. */
class LifecycleTableTest {
  private static final Set<String> ALLOWED = Set.of(
      "pending_payment>confirmed", "pending_payment>expired", "pending_payment>cancelled",
      "pending_payment>awaiting_approval",
      "awaiting_approval>pending_payment", "awaiting_approval>expired", "awaiting_approval>cancelled",
      "expired>confirmed",
      "confirmed>provisioning", "confirmed>cancelled", "confirmed>failed", "confirmed>completed",
      "provisioning>running", "provisioning>completed", "provisioning>cancelled", "provisioning>failed",
      "running>completed", "running>cancelled", "running>failed");

  @Test
  void everyPairIsAllowedExactlyWhenDocumented() {
    Set<String> allowed = new TreeSet<>();
    for (ReservationStatus from : Lifecycle.statuses()) {
      for (ReservationStatus to : Lifecycle.statuses()) {
        if (Lifecycle.allows(from, to)) {
          allowed.add(from.id() + ">" + to.id());
        }
      }
    }
    assertEquals(new TreeSet<>(ALLOWED), allowed);
    assertEquals(ReservationStatus.values().length, Lifecycle.statuses().size(), "every status is in the table");
  }

  @Test
  void endedReservationsGoNowhere() {
    for (ReservationStatus end : Set.of(ReservationStatus.COMPLETED, ReservationStatus.CANCELLED,
        ReservationStatus.FAILED)) {
      for (ReservationStatus to : Lifecycle.statuses()) {
        assertFalse(Lifecycle.allows(end, to), end + " -> " + to);
      }
    }
    assertThrows(IllegalArgumentException.class, () -> ReservationStatus.of("nonsense"));
  }
}
