package io.gpurental.gateway.catalog;

import io.gpurental.gateway.fleet.HostChanges;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the precomputed per-offer figures a search shows (V24 {@code offer_figures}: price in
 * effect, uptime) in step with the events that change them: a host's status, GPU or maintenance
 * change announced by the fleet on this node (each node refreshes what it changed, once), a price
 * set or an offer opened here, and the {@link #REFRESH_JOB} cluster job for the rest (uptime moves
 * with time, a scheduled price takes effect). A refresh that fails is logged and left to the next
 * event or run: the search then reads the views for the offers whose rows no longer hold.
 */
public final class OfferFigures {
  /** The cluster job that recomputes every open offer's figures. */
  public static final String REFRESH_JOB = "catalog-offer-figures";
  private static final Logger LOG = LoggerFactory.getLogger(OfferFigures.class);
  private final OfferFiguresRepository repository;

  OfferFigures(Vertx vertx, Pool pool) {
    this.repository = new OfferFiguresRepository(pool);
    // local: the fleet publishes on the node that made the change, so one node refreshes it
    vertx.eventBus().<Object>localConsumer(HostChanges.ADDRESS, message -> {
      if (message.body() instanceof JsonObject change && change.getString("host_id") != null) {
        refreshHost(change.getString("host_id"));
      }
    });
  }

  /** Every open offer's price and uptime (the cluster job). */
  public Future<Void> refreshAll() {
    return repository.refreshPrices(null).compose(v -> repository.refreshUptime(null));
  }

  /** After a price was set or a model mapped: prices may have changed for any offer. */
  Future<Void> refreshPrices() {
    return logged(repository.refreshPrices(null), "prices");
  }

  /** After a change of one host (status, GPUs, maintenance, a new offer): its offers' figures. */
  Future<Void> refreshHost(String hostId) {
    String[] hosts = {hostId};
    return logged(repository.refreshPrices(hosts).compose(v -> repository.refreshUptime(hosts)), hostId);
  }

  private static Future<Void> logged(Future<Void> refresh, String what) {
    return refresh.onFailure(failure -> LOG.warn("Refreshing the offer figures of {} failed: {}", what,
        failure.toString()));
  }
}
