package io.gpurental.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The scale run as Markdown: one table per fleet size with its floors and ratios, then the curve over sizes. */
final class ScaleReport {
  /** Heartbeats of 1,000 hosts every 10 s: the rate the CPU target is stated at. */
  private static final double TARGET_HEARTBEATS_PER_SECOND = 100;

  /** What one fleet size measured (filled in as the run goes). */
  static final class Size {
    final int hosts;
    double seedSeconds;
    String machineBefore = "";
    String machineAfter = "";
    final List<Result> gateway = new ArrayList<>();
    final Map<String, Result> bare = new LinkedHashMap<>();
    PgBench.Outcome pgbench;
    double heartbeatCpuSecondsEach;
    double rssMixedMaxMiB;
    double rssFloodBeforeMiB;
    double rssFloodAfterMiB;
    double rssFloodMaxMiB;
    long overlaps;
    int blocked;

    Size(int hosts) {
      this.hosts = hosts;
    }

    Result gateway(String prefix) {
      return gateway.stream().filter(r -> r.scenario().startsWith(prefix)).findFirst().orElse(null);
    }

    Result bare(String prefix) {
      return bare.values().stream().filter(r -> r.scenario().startsWith(prefix)).findFirst().orElse(null);
    }
  }

  private ScaleReport() {}

  static String render(List<Size> sizes, int concurrency, int warmup, int duration) {
    StringBuilder out = new StringBuilder();
    out.append(Report.format("Concurrency %d (virtual clients and pgbench clients), warm-up %d s, measured %d s per"
        + " scenario; p50/p99 in ms.%n%n", concurrency, warmup, duration));
    for (Size size : sizes) {
      size(out, size);
    }
    if (!sizes.isEmpty()) {
      curve(out, sizes);
    }
    return out.toString();
  }

  private static void size(StringBuilder out, Size s) {
    out.append(Report.format("### %,d hosts (%,d reservations seeded in %.0f s)%n%n", s.hosts, s.hosts * 100,
        s.seedSeconds));
    out.append("Machine: ").append(s.machineBefore).append("; at the end: ").append(s.machineAfter).append("\n\n");
    out.append("| Scenario | Server | req/s | p50 | p90 | p99 | max | errors |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
    s.gateway.forEach(r -> out.append(row(r, "gateway")));
    s.bare.values().forEach(r -> out.append(row(r, "bare (floor)")));
    if (s.pgbench != null) {
      out.append(Report.format("| hold + release, the hold's SQL | pgbench (floor) | %.0f | mean %.2f | | | | |%n",
          s.pgbench.tps(), s.pgbench.latencyMs()));
    }
    out.append("\n");
    out.append(ratio("cached search ÷ /db (req/s)", s.gateway("search, default"), s.bare("/db")));
    out.append(ratio("version ÷ /health/live (req/s)", s.gateway("version"), s.gateway("health")));
    Result hold = s.gateway("hold");
    out.append(s.pgbench == null || hold == null ? "- hold ÷ pgbench: no pgbench in this run\n"
        : Report.format("- hold ÷ pgbench (hold + release per second): %.2f%n", hold.requestsPerSecond() / s.pgbench.tps()));
    out.append(ratio("quote ÷ bare quote (req/s)", s.gateway("quote"), s.bare("quote")));
    out.append(ratio("heartbeat ÷ bare heartbeat (req/s)", s.gateway("agent heartbeat"), s.bare("agent heartbeat")));
    out.append(Report.format("- gateway CPU per heartbeat %.2f ms: 1,000 hosts every 10 s would take %.1f %% of one core%n",
        s.heartbeatCpuSecondsEach * 1000, s.heartbeatCpuSecondsEach * TARGET_HEARTBEATS_PER_SECOND * 100));
    out.append(Report.format("- gateway RSS: highest %.0f MiB through the scenarios above; anonymous flood %.0f → %.0f MiB"
        + " (highest %.0f)%n", s.rssMixedMaxMiB, s.rssFloodBeforeMiB, s.rssFloodAfterMiB, s.rssFloodMaxMiB));
    out.append(Report.format("- overlapping active bookings of one GPU after the holds and pgbench: %d%n", s.overlaps));
    out.append(Report.format("- blocked-thread warnings in the gateway's log: %d%n%n", s.blocked));
  }

  private static void curve(StringBuilder out, List<Size> sizes) {
    out.append("### Over fleet size (gateway; p50 / p99 ms, req/s)\n\n| Scenario |");
    sizes.forEach(s -> out.append(Report.format(" %,d hosts |", s.hosts)));
    out.append(" p50 largest ÷ smallest |\n|---|");
    sizes.forEach(s -> out.append("---|"));
    out.append("---:|\n");
    for (Result first : sizes.get(0).gateway) {
      out.append("| ").append(first.scenario()).append(" |");
      Result last = first;
      for (Size s : sizes) {
        Result r = s.gateway(first.scenario());
        out.append(r == null ? " |" : Report.format(" %.1f / %.1f, %.0f |", r.millis(50), r.millis(99),
            r.requestsPerSecond()));
        last = r == null ? last : r;
      }
      out.append(Report.format(" %.1f× |%n", last.millis(50) / first.millis(50)));
    }
    out.append("\n");
  }

  private static String ratio(String what, Result gateway, Result floor) {
    if (gateway == null || floor == null || floor.requestsPerSecond() == 0) {
      return "- " + what + ": not measured\n";
    }
    return Report.format("- %s: %.2f%n", what, gateway.requestsPerSecond() / floor.requestsPerSecond());
  }

  private static String row(Result r, String server) {
    return Report.format("| %s | %s | %.0f | %.2f | %.2f | %.2f | %.1f | %d%s |%n", r.scenario(), server,
        r.requestsPerSecond(), r.millis(50), r.millis(90), r.millis(99), r.maxMillis(), r.errors(),
        r.errors() == 0 ? "" : " (" + r.firstError().replace('|', '/').replace('\n', ' ') + ")");
  }
}
