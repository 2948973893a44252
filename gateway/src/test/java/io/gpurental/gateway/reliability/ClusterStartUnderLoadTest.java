package io.gpurental.gateway.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Scenario 9, the cluster's counterpart of platform.StartUnderLoadTest: three gateway JVMs started
 * at once, cold (a fresh database, nothing seeded), while a CPU burner spins on every core. All
 * three become ready and see each other; no start step fails (a transient timeout is retried, not
 * fatal); and no event loop does blocking work during the start (the nodes' own BlockedThreadChecker
 * warnings, read from their logs with their stack traces: see {@link BlockedThreadWarnings}), which
 * is what preceded {@code The gateway could not start: Timeout} on a busy machine.
 */
class ClusterStartUnderLoadTest {
  /** The longest a thread may seem blocked while it only computes on a starved machine. */
  private static final long STARVED_AT_MOST_MS = 10_000;
  private static final Pattern RETRIED = Pattern.compile("Start step '([^']+)' failed \\((.*)\\), try");

  @Test
  void threeNodesStartedAtOnceOnASaturatedMachineAllBecomeReadyWithoutABlockedEventLoop() {
    GatewayCluster cluster = null;
    try (CpuBurners burners = CpuBurners.onEveryCore()) {
      double loadAtLaunch = loadAverage();
      cluster = GatewayCluster.start(3, Map.of());
      double loadAtReady = loadAverage();
      assertTrue(burners.allRunning(), "the burners spun through the whole start");

      List<String> figures = new ArrayList<>();
      List<BlockedThreadWarnings.Warning> blocked = new ArrayList<>();
      List<String> retries = new ArrayList<>();
      for (GatewayProcess node : cluster.nodes()) {
        List<String> log = node.logLines();
        figures.add(node.name() + " ready after " + node.readyAfterMillis() + " ms from launch");
        blocked.addAll(BlockedThreadWarnings.in(node).warnings());
        log.stream().map(RETRIED::matcher).filter(Matcher::find)
            .map(found -> node.name() + ": '" + found.group(1) + "' (" + found.group(2) + ")").forEach(retries::add);
        assertTrue(log.stream().noneMatch(line -> line.contains("could not start")), node.name() + " failed to start:\n"
            + node.logTail());
      }
      System.out.printf("Start under load: %d CPU burners, load average %.1f at launch and %.1f at ready; %s;"
          + " start steps retried: %s; blocked-thread warnings: %s%n", burners.count(), loadAtLaunch, loadAtReady,
          String.join(", ", figures), retries, blocked);
      BlockedThreadWarnings all = new BlockedThreadWarnings(blocked);
      assertEquals(List.of(), all.blocking(), "no blocking work on an event loop while the nodes start");
      // CPU work the starved machine made slow is tolerated, within reason: a start that computes
      // on an event loop for longer than this is a defect even on a busy machine
      assertTrue(all.longestMillis() < STARVED_AT_MOST_MS, "no event loop busy for " + STARVED_AT_MOST_MS
          + " ms or more: " + blocked);
      for (GatewayProcess node : cluster.nodes()) {
        assertEquals(3, node.clusterMembers(), node.name() + " sees all three members");
      }
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
