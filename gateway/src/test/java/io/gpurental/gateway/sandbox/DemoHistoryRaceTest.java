package io.gpurental.gateway.sandbox;

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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sandbox nodes that start at once on a fresh database seed the demo history at once: the advisory
 * lock lets one write it and the others find its marker, so every start succeeds and the history
 * is there once; and it is the same history every time (a fixed random seed), balanced in the ledger.
 */
class DemoHistoryRaceTest {
  private static final int NODES = 4;
  private static final String COUNTS = "SELECT (SELECT count(*) FROM reservations) || '/' || (SELECT count(*) FROM"
      + " payments) || '/' || (SELECT count(*) FROM ledger_transactions) || '/' || (SELECT count(*) FROM"
      + " reservation_credits) || '/' || (SELECT count(*) FROM alert_incidents) || '/' || (SELECT count(*) FROM"
      + " host_telemetry_hourly) || '/' || (SELECT count(*) FROM accounts)";
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
  void nodesStartingAtOnceSeedOneHistory() {
    String first = seedAtOnce();
    String second = seedAtOnce();
    assertEquals(first, second, "the same history on every fresh demo");
    assertTrue(Long.parseLong(first.split("/")[0]) > 300, first);
  }

  private static String seedAtOnce() {
    Pool pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(NODES + 1))
        .connectingTo(TestDatabase.newDatabaseUrl()).using(vertx).build();
    try {
      await(new DemoHosts(pool).seed().compose(v -> DemoFleet.seed(vertx, pool)));
      List<Future<Void>> seeds = new ArrayList<>();
      for (int node = 0; node < NODES; node++) {
        seeds.add(DemoHistory.seed(vertx, pool));
      }
      await(Future.join(seeds).otherwiseEmpty());
      for (Future<Void> seed : seeds) {
        assertTrue(seed.succeeded(), String.valueOf(seed.cause()));
      }
      assertEquals(0L, await(pool.query("SELECT count(*) FROM ledger_problems").execute()).iterator().next()
          .getLong(0), "the ledger balances");
      assertEquals(1L, await(pool.query("SELECT count(*) FROM accounts WHERE id = 'acc_demo_history'").execute())
          .iterator().next().getLong(0));
      return await(pool.query(COUNTS).execute()).iterator().next().getString(0);
    } finally {
      await(pool.close());
    }
  }
}
