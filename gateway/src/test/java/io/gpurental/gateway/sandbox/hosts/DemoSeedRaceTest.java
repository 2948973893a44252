package io.gpurental.gateway.sandbox.hosts;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static io.gpurental.gateway.testing.TestGateway.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.catalog.DemoFleet;
import io.gpurental.gateway.fleet.DemoHosts;
import io.gpurental.gateway.testing.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Transaction;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sandbox nodes that start at once seed the demo fleet at once (Gateway.seedDemoFleet): every
 * seed succeeds and each row is there once, although sites, hosts, GPUs and offers each have a
 * second unique key besides the id the seed upserts by. Each round seeds a fresh, empty database;
 * an uncommitted row with the first demo site's id holds the seeds until all of them wait, and
 * its rollback lets them go together, so they collide in every round rather than now and then.
 */
class DemoSeedRaceTest {
  private static final int ROUNDS = 20;
  private static final int NODES = 12;
  private static final String HOLD = "INSERT INTO sites (id, name, region, country) VALUES ($1, 'gate', 'gate', 'NO')";
  private static final String WAITING = """
      SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'""";
  private static Vertx vertx;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    await(vertx.close());
  }

  @Test
  void nodesSeedingAnEmptyDatabaseAtOnceAllSucceed() {
    for (int round = 0; round < ROUNDS; round++) {
      Pool pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(NODES + 2))
          .connectingTo(TestDatabase.newDatabaseUrl()).using(vertx).build();
      try {
        SqlConnection gate = await(pool.getConnection());
        Transaction held = await(gate.begin());
        await(gate.preparedQuery(HOLD).execute(Tuple.of(DemoHosts.SITES.get(0).id())));
        List<Future<Void>> seeds = new ArrayList<>();
        for (int node = 0; node < NODES; node++) {
          seeds.add(new DemoHosts(pool).seed().compose(v -> DemoFleet.seed(vertx, pool)));
        }
        eventually("every seed waits", () -> count(pool, WAITING), waiting -> waiting >= NODES);
        await(held.rollback().eventually(() -> gate.close()));
        await(Future.join(seeds).otherwiseEmpty());
        for (Future<Void> seed : seeds) {
          assertTrue(seed.succeeded(), "round " + round + ": " + seed.cause());
        }
        assertEquals(DemoHosts.HOSTS.size(), count(pool, "SELECT count(*) FROM hosts"), "round " + round);
        assertEquals(DemoHosts.HOSTS.size(), count(pool, "SELECT count(*) FROM offers"), "round " + round);
        assertEquals(DemoHosts.HOSTS.stream().mapToLong(DemoHosts.Host::gpuCount).sum(),
            count(pool, "SELECT count(*) FROM gpus"), "round " + round);
      } finally {
        await(pool.close());
      }
    }
  }

  private static long count(Pool pool, String query) {
    return await(pool.query(query).execute()).iterator().next().getLong(0);
  }
}
