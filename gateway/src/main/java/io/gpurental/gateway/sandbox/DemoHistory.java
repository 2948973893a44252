package io.gpurental.gateway.sandbox;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.Pool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sandbox demo fleet's last 30 days ({@code sandbox/demo-history.sql}): renters'
 * reservations, payments and their ledger, measured energy, an offline host with its downtime
 * credits, a late start with its ready credit, a price change and resolved incidents, so a fresh
 * demo shows Economics, uptime, ready times and Incidents with figures. Sandbox mode only (with
 * {@code sandbox.seed_history}), after the demo fleet; the file's header says which features'
 * tables it writes. One transaction behind an advisory lock, on a database without reservations
 * only: idempotent, and safe when several nodes start at once (a node that finds another seeding
 * waits a second at a time, retrying, then finds the history there). Runs through the pool, never
 * on an event loop's thread; the file is read asynchronously.
 */
public final class DemoHistory {
  private static final Logger LOG = LoggerFactory.getLogger(DemoHistory.class);
  private static final String RESOURCE = "sandbox/demo-history.sql";
  /** PostgreSQL's lock_not_available: the lock_timeout of one wait for the advisory lock ran out. */
  private static final String LOCK_NOT_AVAILABLE = "55P03";
  /** Waits of a second for another node's seeding (which takes a few seconds at most). */
  private static final int WAITS = 60;

  private DemoHistory() {}

  public static Future<Void> seed(Vertx vertx, Pool pool) {
    long started = System.nanoTime();
    return vertx.fileSystem().readFile(RESOURCE)
        .compose(sql -> attempt(pool, sql.toString(), WAITS))
        .onSuccess(v -> LOG.info("Sandbox demo history checked or seeded in {} ms",
            (System.nanoTime() - started) / 1_000_000));
  }

  private static Future<Void> attempt(Pool pool, String sql, int waitsLeft) {
    return pool.withTransaction(tx -> tx.query(sql).execute()).<Void>mapEmpty()
        .recover(failure -> retryable(failure) && waitsLeft > 0 ? attempt(pool, sql, waitsLeft - 1)
            : Future.failedFuture(failure));
  }

  /**
   * Another node seeding (the lock wait ran out), or a connection the pool dropped as silent on a
   * saturated machine: the transaction rolled back whole, so trying again is safe.
   */
  private static boolean retryable(Throwable failure) {
    return failure instanceof PgException pg && LOCK_NOT_AVAILABLE.equals(pg.getSqlState())
        || failure instanceof ClosedConnectionException;
  }
}
