package io.gpurental.gateway.catalog;

import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Future;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
