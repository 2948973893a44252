package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The state machine allows exactly the documented moves and nothing else. */
class LifecycleTableTest {
  private static final Set<String> ALLOWED = Set.of(
      "pending_payment>confirmed", "pending_payment>expired", "pending_payment>cancelled",
      "expired>confirmed",
      "confirmed>provisioning", "confirmed>cancelled", "confirmed>failed", "confirmed>completed",
      "provisioning>running", "provisioning>completed", "provisioning>cancelled", "provisioning>failed",
      "running>completed", "running>cancelled", "running>failed");

  @Test
  void everyPairIsAllowedExactlyWhenDocumented() {
    Set<String> allowed = new TreeSet<>();
    for (String from : Lifecycle.statuses()) {
      for (String to : Lifecycle.statuses()) {
        if (Lifecycle.allows(from, to)) {
          allowed.add(from + ">" + to);
        }
      }
    }
    assertEquals(new TreeSet<>(ALLOWED), allowed);
    assertEquals(8, Lifecycle.statuses().size());
  }

  @Test
  void endedReservationsGoNowhere() {
    for (String end : Set.of(Lifecycle.COMPLETED, Lifecycle.CANCELLED, Lifecycle.FAILED)) {
      for (String to : Lifecycle.statuses()) {
        assertFalse(Lifecycle.allows(end, to), end + " -> " + to);
      }
    }
    assertFalse(Lifecycle.allows("nonsense", Lifecycle.CONFIRMED));
  }
}
