package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gpurental.gateway.platform.errors.TooManyRequests;
import org.junit.jupiter.api.Test;

/** The per-account and per-node caps of open event streams. */
class StreamSlotsTest {
  @Test
  void accountsAndTheNodeAreCappedAndReleasingFreesASlot() {
    StreamSlots slots = new StreamSlots(2, 3);
    slots.acquire("acc_a");
    slots.acquire("acc_a");
    TooManyRequests account = assertThrows(TooManyRequests.class, () -> slots.acquire("acc_a"));
    assertEquals(429, account.status());
    slots.acquire("acc_b");
    TooManyRequests node = assertThrows(TooManyRequests.class, () -> slots.acquire("acc_c"));
    assertEquals(429, node.status());

    slots.release("acc_a");
    assertDoesNotThrow(() -> slots.acquire("acc_c"), "a released stream frees a node slot");
    assertThrows(TooManyRequests.class, () -> slots.acquire("acc_a"), "the node is full again");
    slots.release("acc_b");
    assertDoesNotThrow(() -> slots.acquire("acc_a"), "acc_a holds one, so it may open a second");
  }
}
