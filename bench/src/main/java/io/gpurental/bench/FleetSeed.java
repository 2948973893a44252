package io.gpurental.bench;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.stream.Collectors;

/**
 * Writes a fleet with history into the gateway's database through {@code bench/sql/seed-fleet.sql}
 * (the psql script of docs/benchmarks.md, run here as one simple query: its {@code :hosts} set,
 * its psql commands dropped), then waits until the gateway's figures job has computed every
 * seeded offer's precomputed search figures, as it would have in a fleet that grew over time.
 */
final class FleetSeed {
  private static final String VACUUM = "VACUUM ANALYZE";
  private static final String FIGURES_MISSING = """
      SELECT count(*) FROM offers o WHERE o.closed_at IS NULL AND NOT EXISTS (
        SELECT 1 FROM offer_figures f WHERE f.offer_id = o.id AND f.uptime_at >= $1 AND f.price_at >= $1)""";

  private FleetSeed() {}

  /** The script for {@code hosts} hosts, as one statement list (psql meta-commands and the VACUUM left out). */
  static String script(Path file, int hosts) throws IOException {
    return Files.readAllLines(file).stream()
        .filter(line -> !line.startsWith("\\") && !line.trim().equalsIgnoreCase(VACUUM + ";"))
        .map(line -> line.replace(":hosts", Integer.toString(hosts)))
        .collect(Collectors.joining("\n"));
  }

  /** Seeds, analyzes, and returns the database's time when the seed was complete. */
  static Future<OffsetDateTime> seed(Pool pool, Path file, int hosts) throws IOException {
    String script = script(file, hosts);
    return pool.query(script).execute()
        .compose(done -> pool.query(VACUUM).execute())
        .compose(done -> pool.query("SELECT now()").execute())
        .map(rows -> rows.iterator().next().getOffsetDateTime(0));
  }

  /** Polls until every open offer has figures computed after {@code since}; fails after {@code timeout}. */
  static void awaitFigures(Pool pool, OffsetDateTime since, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long missing = -1;
    while (System.nanoTime() < deadline) {
      missing = pool.preparedQuery(FIGURES_MISSING).execute(Tuple.of(since)).await().iterator().next().getLong(0);
      if (missing == 0) {
        return;
      }
      Thread.sleep(2_000);
    }
    throw new IllegalStateException(missing + " offers still without figures after " + timeout
        + ": is pricing.offer_figures_refresh_minutes set for the run?");
  }
}
