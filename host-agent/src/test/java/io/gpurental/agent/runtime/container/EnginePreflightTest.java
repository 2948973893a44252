package io.gpurental.agent.runtime.container;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Docker's userns-remap root, read from the data root the daemon uses then (its inspect names no map). */
class EnginePreflightTest {
  @Test
  void theRemappedRootComesFromDockersDataRoot() {
    assertArrayEquals(new int[] {100000, 100000}, EnginePreflight.remappedRoot("/var/lib/docker/100000.100000"));
    assertArrayEquals(new int[] {(int) 3000000000L, 231072},
        EnginePreflight.remappedRoot("/srv/docker/3000000000.231072/"));
    assertNull(EnginePreflight.remappedRoot("/var/lib/docker"));
    assertNull(EnginePreflight.remappedRoot(""));
  }
}
