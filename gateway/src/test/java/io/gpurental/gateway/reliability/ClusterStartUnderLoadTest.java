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
 * fatal); and no event loop is blocked during the start (the nodes' own BlockedThreadChecker
 * warnings, read from their logs), which is what preceded {@code The gateway could not start:
 * Timeout} on a busy machine.
 */
class ClusterStartUnderLoadTest {
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
      List<String> blocked = new ArrayList<>();
      List<String> retries = new ArrayList<>();
      for (GatewayProcess node : cluster.nodes()) {
        List<String> log = node.logLines();
        figures.add(node.name() + " ready after " + node.readyAfterMillis() + " ms from launch");
        log.stream().filter(line -> line.contains("has been blocked")).map(line -> node.name() + ": " + line)
            .forEach(blocked::add);
        log.stream().map(RETRIED::matcher).filter(Matcher::find)
            .map(found -> node.name() + ": '" + found.group(1) + "' (" + found.group(2) + ")").forEach(retries::add);
        assertTrue(log.stream().noneMatch(line -> line.contains("could not start")), node.name() + " failed to start:\n"
            + node.logTail());
      }
      System.out.printf("Start under load: %d CPU burners, load average %.1f at launch and %.1f at ready; %s;"
          + " start steps retried: %s; blocked event loops: %d%n", burners.count(), loadAtLaunch, loadAtReady,
          String.join(", ", figures), retries, blocked.size());
      assertEquals(List.of(), blocked, "no event loop is blocked while the nodes start");
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
