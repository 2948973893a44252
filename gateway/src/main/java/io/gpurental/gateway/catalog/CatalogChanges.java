package io.gpurental.gateway.catalog;

import io.vertx.core.Vertx;

/**
 * The clustered event-bus address on which anything that changes what the catalog shows
 * (bookings, prices, hosts and their status) announces it, so every node drops its cached
 * searches at once.
 */
public final class CatalogChanges {
  public static final String ADDRESS = "catalog.changed";

  private CatalogChanges() {}

  /** Tells every node in the cluster that the catalog changed. */
  public static void publish(Vertx vertx, String what) {
    vertx.eventBus().publish(ADDRESS, what);
  }
}
