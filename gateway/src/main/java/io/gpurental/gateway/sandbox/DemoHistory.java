package io.gpurental.gateway.sandbox;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
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
 * only: idempotent, and safe when several nodes start at once. Runs through the pool (never on
 * an event loop's thread), the file read asynchronously.
 */
public final class DemoHistory {
  private static final Logger LOG = LoggerFactory.getLogger(DemoHistory.class);
  private static final String RESOURCE = "sandbox/demo-history.sql";

  private DemoHistory() {}

  public static Future<Void> seed(Vertx vertx, Pool pool) {
    long started = System.nanoTime();
    return vertx.fileSystem().readFile(RESOURCE)
        .compose(sql -> pool.withTransaction(tx -> tx.query(sql.toString()).execute()))
        .onSuccess(v -> LOG.info("Sandbox demo history checked or seeded in {} ms",
            (System.nanoTime() - started) / 1_000_000))
        .mapEmpty();
  }
}
