package io.gpurental.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The results as a Markdown table (what docs/benchmarks.md shows), with gateway ÷ bare per scenario. */
final class Report {
  private Report() {}

  static String table(List<Result> gateway, Map<String, Result> bare) {
    StringBuilder out = new StringBuilder();
    out.append("| Scenario | Server | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | gateway ÷ bare (req/s; p50) |\n");
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (Result g : gateway) {
      Result b = bare.get(g.scenario());
      String ratio = b == null || b.requestsPerSecond() == 0 ? "no baseline"
          : b.errors() > 0 ? "n/a (baseline errors)"
          : format("%.2f× ; %.1f×", g.requestsPerSecond() / b.requestsPerSecond(), g.millis(50) / b.millis(50));
      out.append(row(g, "gateway", ratio));
      if (b != null) {
        out.append(row(b, "bare", ""));
      }
    }
    return out.toString();
  }

  private static String row(Result r, String server, String ratio) {
    return format("| %s | %s | %.0f | %.2f | %.2f | %.2f | %.1f | %d%s | %s |%n", r.scenario(), server,
        r.requestsPerSecond(), r.millis(50), r.millis(90), r.millis(99), r.maxMillis(), r.errors(),
        r.errors() == 0 ? "" : " (" + r.firstError().replace('|', '/').replace('\n', ' ') + ")", ratio);
  }

  /** nproc, memory and load average, from /proc (Linux). */
  static String machine() {
    return format("%d cores (nproc), %s memory, load average %s", Runtime.getRuntime().availableProcessors(),
        memory(), read("/proc/loadavg").trim());
  }

  private static String memory() {
    String total = read("/proc/meminfo").lines().filter(l -> l.startsWith("MemTotal:")).findFirst().orElse("");
    String kb = total.replaceAll("\\D", "");
    return kb.isEmpty() ? "?" : format("%.1f GiB", Long.parseLong(kb) / 1024.0 / 1024.0);
  }

  private static String read(String path) {
    try {
      return Files.readString(Path.of(path));
    } catch (IOException e) {
      return "?";
    }
  }

  static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
