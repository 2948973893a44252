package io.gpurental.gateway.platform.db;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.config.ConfigLoader;
import io.gpurental.gateway.config.DbConfig;
import io.gpurental.gateway.testing.FreezableProxy;
import io.gpurental.gateway.testing.TestDatabase;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Which failures mean "PostgreSQL is unavailable, retry" (503) and which are bugs (500). */
class DatabaseOutagesTest {
  @Test
  void serverSideRefusalsAreOutagesButDataErrorsAreNot() {
    assertTrue(DatabaseOutages.isOutage(pg("57014")), "statement timeout");
    assertTrue(DatabaseOutages.isOutage(pg("57P01")), "server shutting down");
    assertTrue(DatabaseOutages.isOutage(pg("53300")), "too many connections");
    assertTrue(DatabaseOutages.isOutage(pg("08006")), "connection failure");
    assertFalse(DatabaseOutages.isOutage(pg("23505")), "a unique violation is a bug or a conflict");
    assertFalse(DatabaseOutages.isOutage(pg("22021")), "bad input is not an outage");
    assertFalse(DatabaseOutages.isOutage(new IllegalStateException("bug")));
    assertTrue(DatabaseOutages.isOutage(new io.vertx.core.VertxException(
        "Connection is not active now, current status: CLOSED", true)), "handed a connection as it was dropped");
    assertTrue(DatabaseOutages.isOutage(new CompletionException(pg("57014"))), "found in the cause chain");
  }

  @Test
  void aFullWaitQueueIsAnOutageAndAnswersAtOnce() throws Exception {
    URI database = URI.create(TestDatabase.newDatabaseUrl());
    Vertx vertx = Vertx.vertx();
    try (FreezableProxy proxy = FreezableProxy.start(database.getHost(), database.getPort())) {
      String url = "postgresql://postgres@127.0.0.1:" + proxy.port() + database.getPath();
      DbConfig db = ConfigLoader.load(List.of(), Map.of("GATEWAY_DB_URL", url, "GATEWAY_DB_POOL_SIZE", "1",
          "GATEWAY_DB_POOL_WAIT_QUEUE_SIZE", "1")).db();
      Pool pool = DatabasePool.create(vertx, db, DatabaseTarget.fromUrl(URI.create(url), db));
      TestGateway.await(pool.query("SELECT 1").execute());
      proxy.freeze();
      pool.query("SELECT 1").execute(); // holds the one connection
      pool.query("SELECT 1").execute(); // waits in the queue
      long start = System.nanoTime();
      Future<?> rejected = pool.query("SELECT 1").execute();
      Throwable failure = rejected.toCompletionStage().toCompletableFuture()
          .handle((rows, e) -> e).get(1, TimeUnit.SECONDS);
      assertTrue(failure != null && DatabaseOutages.isOutage(failure), String.valueOf(failure));
      assertTrue(System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(500), "rejected without waiting");
      proxy.thaw();
    } finally {
      TestGateway.await(vertx.close());
    }
  }

  /** Every connection busy (not broken) for longer than the pool wait: 503, not a 500. */
  @Test
  void waitingTooLongForABusyConnectionIsAnOutage() throws Exception {
    URI database = URI.create(TestDatabase.newDatabaseUrl());
    Vertx vertx = Vertx.vertx();
    try {
      String url = "postgresql://postgres@" + database.getHost() + ":" + database.getPort() + database.getPath();
      DbConfig db = ConfigLoader.load(List.of(), Map.of("GATEWAY_DB_URL", url, "GATEWAY_DB_POOL_SIZE", "1",
          "GATEWAY_DB_POOL_WAIT_TIMEOUT_MS", "1000")).db();
      Pool pool = DatabasePool.create(vertx, db, DatabaseTarget.fromUrl(URI.create(url), db));
      // the one connection is open (on a loaded machine opening it can outlast the 1 s pool wait)...
      io.gpurental.gateway.testing.Eventually.eventually("the pool's connection open", () -> pool.query("SELECT 1")
          .execute().toCompletionStage().toCompletableFuture().handle((rows, e) -> e == null).join(), ok -> ok);
      Future<?> busy = pool.query("SELECT pg_sleep(2)").execute(); // ...and busy for 2 s
      // a transaction takes its connection another way than a one-shot query, and fails otherwise
      Throwable failure = pool.withTransaction(tx -> tx.query("SELECT 1").execute()).toCompletionStage()
          .toCompletableFuture().handle((rows, e) -> e).get(5, TimeUnit.SECONDS);
      assertTrue(failure != null && DatabaseOutages.isOutage(failure), String.valueOf(failure));
      TestGateway.await(busy);
    } finally {
      TestGateway.await(vertx.close());
    }
  }

  private static PgException pg(String sqlState) {
    return new PgException("test", "ERROR", sqlState, null);
  }
}
