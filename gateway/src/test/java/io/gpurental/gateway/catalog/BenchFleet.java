package io.gpurental.gateway.catalog;

import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Future;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;

/** The benchmark's seeded fleet (`bench/sql/seed-fleet.sql`) in a test gateway, with its search figures. */
final class BenchFleet {
  private BenchFleet() {}

  static void seed(TestGateway node, int hosts) throws IOException {
    String seed = Files.readAllLines(Path.of("../bench/sql/seed-fleet.sql")).stream()
        .filter(line -> !line.startsWith("\\") && !line.trim().equalsIgnoreCase("VACUUM ANALYZE;"))
        .filter(line -> !line.trim().startsWith("--"))
        .map(line -> line.replace(":hosts", Integer.toString(hosts))).collect(Collectors.joining("\n"));
    // statement by statement on one connection (its temporary tables), each well within the pool's
    // statement timeout and silence limit on a busy machine
    TestGateway.await(node.gateway().pool().withConnection(connection -> {
      Future<Void> done = Future.succeededFuture();
      for (String statement : seed.split(";\\s*\\n")) {
        if (!statement.isBlank()) {
          done = done.compose(v -> connection.query(statement).execute().<Void>mapEmpty());
        }
      }
      return done;
    }));
    TestGateway.await(node.gateway().jobs().runNow(OfferFigures.REFRESH_JOB));
  }

  /** The offers {@link #seedWithStaleFigures} leaves without a precomputed row that holds. */
  static final Set<String> FALLBACK = Set.of("off_b4", "off_b9", "off_b15", "off_b11", "off_b16", "off_b21");

  /**
   * 24 hosts, some offers with GPU counts of their own, and {@link #FALLBACK}'s precomputed rows no
   * longer holding (an older price seen) or missing, so a search must ask the views for them.
   */
  static void seedWithStaleFigures(TestGateway node) throws IOException {
    seed(node, 24);
    node.sql("UPDATE offers SET gpu_counts = '{2,4}' WHERE id ~ '^off_b[0-9]*7$'");
    node.sql("UPDATE offers SET gpu_counts = '{8}' WHERE id ~ '^off_b[0-9]*3$'");
    node.sql("UPDATE offer_figures SET prices_seen = 0, amount_per_gpu_hour = 1, uptime_at = now() - interval '2 hours',"
        + " uptime_30d = 0.01 WHERE offer_id IN ('off_b4', 'off_b9', 'off_b15')");
    node.sql("DELETE FROM offer_figures WHERE offer_id IN ('off_b11', 'off_b16', 'off_b21')");
    TestGateway.await(node.gateway().vertx().eventBus().request(CatalogChanges.ADDRESS, "test"));
  }
}
