package io.gpurental.gateway.reservations;

import io.gpurental.gateway.payments.StripeGateway;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.pricing.Quotes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import java.time.Duration;

/** Reservations: holds that never double-book, their lifecycle and their sweeper. */
public final class ReservationsFeature implements Feature {
  private static final long SWEEP_PERIOD_MS = 5_000;
  private final ReservationsApi api;
  private final SshKeysApi sshKeys;
  private final LiveUpdates live;
  private final HoldSweeper sweeper;

  public ReservationsFeature(Vertx vertx, Pool pool, Quotes quotes, Duration hold, StripeGateway stripe,
      String publicBase) {
    ReservationRepository repository = new ReservationRepository(pool);
    this.api = new ReservationsApi(vertx, repository, new ReservationService(vertx, repository, hold), quotes, stripe,
        publicBase);
    this.sshKeys = new SshKeysApi(pool);
    this.live = new LiveUpdates(vertx);
    this.sweeper = new HoldSweeper(vertx, repository, SWEEP_PERIOD_MS);
    sweeper.start();
  }

  @Override
  public Future<Void> close() {
    sweeper.stop();
    return Future.succeededFuture();
  }

  @Override
  public void bind(RouterBuilder routes) {
    api.bind(routes);
    sshKeys.bind(routes);
    live.bind(routes);
  }
}
