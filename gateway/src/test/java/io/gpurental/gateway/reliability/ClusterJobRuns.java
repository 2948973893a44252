package io.gpurental.gateway.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cluster job runs the nodes logged ({@code reliability/node-logback.xml} turns on the job
 * log: "Job NAME done in N ms", stamped when the run ended), as intervals, and the pairs of runs
 * of one job on two nodes that overlapped in time: a job that ran twice at once.
 */
final class ClusterJobRuns {
  /** The JVM option that gives a node the log configuration these runs are read from. */
  static final String NODE_LOG_OPTION = "-Dlogback.configurationFile="
      + ClusterJobRuns.class.getResource("/reliability/node-logback.xml");
  private static final Pattern RUN =
      Pattern.compile("^(\\S+Z) DEBUG .*Job (\\S+) done in (\\d+) ms");
  /** A run's start is its end less its duration in whole milliseconds: up to 1 ms early or late. */
  private static final long SLACK_MS = 2;

  record Run(String node, String job, long startMillis, long endMillis) {
    boolean overlaps(Run other) {
      return startMillis + SLACK_MS < other.endMillis && other.startMillis + SLACK_MS < endMillis;
    }

    long millis() {
      return endMillis - startMillis;
    }
  }

  private ClusterJobRuns() {}

  static List<Run> read(GatewayCluster cluster) {
    List<Run> runs = new ArrayList<>();
    for (GatewayProcess node : cluster.nodes()) {
      try (var lines = Files.lines(cluster.logDirectory().resolve(node.name() + ".log"))) {
        lines.forEach(line -> {
          Matcher run = RUN.matcher(line);
          if (run.find()) {
            long end = Instant.parse(run.group(1)).toEpochMilli();
            runs.add(new Run(node.name(), run.group(2), end - Long.parseLong(run.group(3)), end));
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    runs.sort(Comparator.comparingLong(Run::startMillis));
    return runs;
  }

  /** The log lines of runs a freeze of their node cut short ({@code JobRun}): they took no step after it. */
  static long cutByFreeze(GatewayCluster cluster) {
    long cut = 0;
    for (GatewayProcess node : cluster.nodes()) {
      try (var lines = Files.lines(cluster.logDirectory().resolve(node.name() + ".log"))) {
        cut += lines.filter(line -> line.contains(" spanned a freeze of this node ")).count();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return cut;
  }

  /** Pairs of runs of the same job on two nodes at once. */
  static List<List<Run>> concurrent(List<Run> runs) {
    List<List<Run>> pairs = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      Run a = runs.get(i);
      for (int j = i + 1; j < runs.size() && runs.get(j).startMillis() < a.endMillis(); j++) {
        Run b = runs.get(j);
        if (a.job().equals(b.job()) && !a.node().equals(b.node()) && a.overlaps(b)) {
          pairs.add(List.of(a, b));
        }
      }
    }
    return pairs;
  }
}
