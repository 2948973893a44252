package io.gpurental.agent.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** SMART's verdict over every disk smartctl finds; JSON and text output; missing, unsupported, garbled. */
class DiskHealthTest {
  private static final String SCAN = "--scan -j";
  private static final String SDA = "-H -j -d sat /dev/sda";
  private static final String NVME = "-H -j -d nvme /dev/nvme0";

  @Test
  void everyDiskPassing() {
    assertEquals("passed", refreshed(scanned().answerFile(SDA, 0, "smartctl-health-passed.json")
        .answerFile(NVME, 0, "smartctl-health-passed.json")));
  }

  @Test
  void oneFailingDiskFailsTheHostEvenThroughSmartctlsExitBits() {
    assertEquals("failed", refreshed(scanned().answerFile(SDA, 8, "smartctl-health-failed.json")
        .answerFile(NVME, 0, "smartctl-health-passed.json")));
  }

  @Test
  void aDiskWithoutSmartCountsForNothing() {
    assertEquals("passed", refreshed(scanned().answerFile(SDA, 4, "smartctl-health-unsupported.json")
        .answerFile(NVME, 0, "smartctl-health-passed.json")));
    assertNull(refreshed(scanned().answerFile(SDA, 4, "smartctl-health-unsupported.json")
        .answerFile(NVME, 4, "smartctl-health-unsupported.json")));
  }

  @Test
  void noDisksGarbledOrAbsentIsUnknown() {
    assertNull(refreshed(new CannedCommands().answer(SCAN, 0, "{\"devices\": []}")));
    assertNull(refreshed(new CannedCommands().answer(SCAN, 0, "{\"devices\": [{\"name\": 3}]").answer(SDA, 0, "{{{")));
    assertNull(refreshed(scanned().answer(SDA, 0, "\u0000garbage").answer(NVME, 0, "{\"smart_status\": {\"passed\": \"yes\"}}")));
    CannedCommands commands = scanned();
    DiskHealth absent = new DiskHealth(CannedCommands.ABSENT, commands);
    absent.refresh();
    assertNull(absent.current());
    assertEquals(0, commands.calls.size());
  }

  @Test
  void textOutputOfOlderSmartctl() {
    assertEquals(List.of(new DiskHealth.Device("/dev/sda", "sat"), new DiskHealth.Device("/dev/nvme0", "nvme")),
        DiskHealth.parseScan(read("smartctl-scan.txt")));
    assertEquals(true, DiskHealth.parseHealth(read("smartctl-health-ata.txt")));
    assertEquals(false, DiskHealth.parseHealth("SMART overall-health self-assessment test result: FAILED!\n"));
    assertEquals(true, DiskHealth.parseHealth("SMART Health Status: OK\n"));
  }

  private static CannedCommands scanned() {
    return new CannedCommands().answerFile(SCAN, 0, "smartctl-scan.json");
  }

  private static String refreshed(CannedCommands commands) {
    DiskHealth health = new DiskHealth(CannedCommands.PRESENT, commands);
    health.refresh();
    return health.current();
  }

  private static String read(String fixture) {
    try {
      return java.nio.file.Files.readString(CannedCommands.FIXTURES.resolve(fixture));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
