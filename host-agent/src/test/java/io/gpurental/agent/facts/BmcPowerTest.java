package io.gpurental.agent.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The BMC's power reading: both ipmitool layouts, the ways it fails, and how rarely it is asked again. */
class BmcPowerTest {
  private static final String ARGS = "dcmi power reading";
  private final AtomicLong clock = new AtomicLong(1_000_000);

  @Test
  void readsBothLayoutsOfIpmitool() {
    assertEquals(312.0, power(new CannedCommands().answerFile(ARGS, 0, "ipmitool-dcmi-power-reading.txt")).watts());
    assertEquals(214.0, power(new CannedCommands().answerFile(ARGS, 0, "ipmitool-1.8.19-dcmi-power-reading.txt")).watts());
  }

  @Test
  void aDeactivatedZeroOrGarbledReadingIsNoReading() {
    assertNull(power(new CannedCommands().answerFile(ARGS, 0, "ipmitool-deactivated.txt")).watts());
    assertNull(BmcPower.parse("    Instantaneous power reading:                     0 Watts\n"));
    assertNull(power(new CannedCommands().answer(ARGS, 0, "Instantaneous power reading: lots\n\u0000\u0001")).watts());
    assertNull(power(new CannedCommands().answer(ARGS, 0, "")).watts());
  }

  @Test
  void aFailingBmcIsLeftAloneForAWhile() {
    CannedCommands commands = new CannedCommands().answer(ARGS, 1,
        "Could not open device at /dev/ipmi0 or /dev/ipmi/0 or /dev/ipmidev/0: No such file or directory");
    BmcPower bmc = power(commands);
    assertNull(bmc.watts());
    assertNull(bmc.watts());
    assertEquals(1, commands.calls.size(), "not asked again on the next heartbeat");
    clock.addAndGet(BmcPower.AFTER_FAILURE.toMillis());
    commands.answerFile(ARGS, 0, "ipmitool-dcmi-power-reading.txt");
    assertEquals(312.0, bmc.watts(), "asked again after the pause, and it answers");
    assertEquals(312.0, bmc.watts());
    assertEquals(3, commands.calls.size(), "a working BMC is asked every heartbeat");
  }

  @Test
  void aTimeoutIsAFailure() {
    CannedCommands commands = new CannedCommands().failWith(new IOException("ipmitool did not finish within 5 s"));
    BmcPower bmc = power(commands);
    assertNull(bmc.watts());
    assertNull(bmc.watts());
    assertEquals(1, commands.calls.size());
  }

  @Test
  void aMissingIpmitoolIsProbedRarely() {
    CannedCommands commands = new CannedCommands().answerFile(ARGS, 0, "ipmitool-dcmi-power-reading.txt");
    BmcPower bmc = new BmcPower(CannedCommands.ABSENT, commands, clock::get);
    assertNull(bmc.watts());
    clock.addAndGet(BmcPower.REPROBE_MISSING.toMillis() - 1);
    assertNull(bmc.watts());
    assertEquals(0, commands.calls.size(), "never run while absent");
  }

  private BmcPower power(CannedCommands commands) {
    return new BmcPower(CannedCommands.PRESENT, commands, clock::get);
  }
}
