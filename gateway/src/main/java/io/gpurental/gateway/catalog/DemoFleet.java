package io.gpurental.gateway.catalog;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;

/**
 * Loads the sandbox demo fleet's offers and prices ({@code sandbox/demo-offers.sql}, idempotent) in
 * sandbox mode only, after the fleet stored its hosts ({@code fleet.DemoHosts}).
 */
public final class DemoFleet {
  private static final String RESOURCE = "sandbox/demo-offers.sql";

  private DemoFleet() {}

  public static Future<Void> seed(Vertx vertx, Pool pool) {
    return vertx.fileSystem().readFile(RESOURCE)
        .compose(sql -> pool.withTransaction(tx -> tx.query(sql.toString()).execute()))
        .mapEmpty();
  }
}
