package io.gpurental.gateway.reservations;

import io.gpurental.gateway.config.ReservationConfig;
import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.pricing.Quotes;
import io.gpurental.gateway.pricing.QuotesApi;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import java.time.Duration;

/** Reservations: holds that never double-book, their lifecycle, the hold sweeper and the scheduler. */
public final class ReservationsFeature implements Feature {
  private static final long SWEEP_PERIOD_MS = 5_000;
  /** A provisioning instance the host has not reported after this long is asked for again. */
  private static final Duration STUCK_AFTER = Duration.ofMinutes(2);
  private final ReservationsApi api;
  private final SshKeysApi sshKeys;
  private final LiveUpdates live;
  private final HoldSweeper sweeper;
  private final Scheduler scheduler;
  private final IdempotencyKeys idempotencyKeys;

  /** The one the quotes and the UI show, from the configured fee. */
  public static String cancellationPolicy(ReservationConfig config) {
    return new RefundPolicy(config.cancellationFeeBps()).describe();
  }

  public ReservationsFeature(Vertx vertx, Pool pool, Quotes quotes, QuotesApi quoting, ReservationConfig config,
      int maxHours, Payments payments, Fleet instances, String publicBase) {
    ReservationRepository repository = new ReservationRepository(pool, new RefundPolicy(config.cancellationFeeBps()));
    Cancellations cancellations = new Cancellations(vertx, repository, payments, instances);
    Extensions extensions = new Extensions(vertx, repository, quoting, payments, config.hold(), publicBase);
    this.api = new ReservationsApi(vertx, repository, new ReservationService(vertx, repository, config.hold()), quotes,
        quoting, payments, cancellations, extensions, publicBase, maxHours);
    this.sshKeys = new SshKeysApi(pool);
    this.idempotencyKeys = new IdempotencyKeys(pool);
    this.live = new LiveUpdates(vertx);
    this.sweeper = new HoldSweeper(vertx, repository, SWEEP_PERIOD_MS);
    this.scheduler = new Scheduler(vertx, repository, instances, STUCK_AFTER,
        new HostFailures(vertx, repository, payments), payments);
    instances.reportTo(scheduler); // reports of instances another node (or an earlier run) started
    sweeper.start();
    scheduler.start(config.schedulerInterval());
  }

  /** Forgets Idempotency-Keys older than 24 h (this feature owns the table; a cluster job calls it). */
  public Future<Integer> pruneIdempotencyKeys() {
    return idempotencyKeys.prune();
  }

  @Override
  public Future<Void> close() {
    sweeper.stop();
    scheduler.stop();
    return Future.succeededFuture();
  }

  @Override
  public void bind(RouterBuilder routes) {
    api.bind(routes);
    sshKeys.bind(routes);
    live.bind(routes);
  }
}
