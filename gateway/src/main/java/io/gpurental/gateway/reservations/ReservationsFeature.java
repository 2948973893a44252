package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Credentials;
import io.gpurental.gateway.auth.TokenSpending;
import io.gpurental.gateway.config.EventsConfig;
import io.gpurental.gateway.config.FleetConfig;
import io.gpurental.gateway.config.ReservationConfig;
import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.fleet.MaintenanceOverlaps;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.platform.jobs.ClusterJobs;
import io.gpurental.gateway.pricing.Quotes;
import io.gpurental.gateway.pricing.QuotesApi;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import java.time.Duration;

/** Reservations: holds that never double-book, their lifecycle, the hold sweeper and the scheduler. */
public final class ReservationsFeature implements Feature {
  public static final String EXPIRE_HOLDS = "reservations.expire-holds";
  public static final String START_AND_END_WINDOWS = "reservations.start-and-end-windows";
  private static final Duration SWEEP_EVERY = Duration.ofSeconds(5);
  /** A provisioning instance the host has not reported after this long is asked for again. */
  private static final Duration STUCK_AFTER = Duration.ofMinutes(2);
  private final ReservationsApi api;
  private final Bookings bookings;
  private final Budgets tokenSpending;
  private final SshKeysApi sshKeys;
  private final LiveUpdates live;
  private final HoldSweeper sweeper;
  private final Scheduler scheduler;
  private final IdempotencyKeys idempotencyKeys;
  private final Duration schedulerEvery;

  /** The policy in words for a cancellation fee (the quotes carry it, and the fee, from their terms). */
  public static String cancellationPolicy(int feeBps) {
    return new RefundPolicy(feeBps).describe();
  }

  /** The ready guarantee in words, from the configured deadline: every quote states it. */
  public static String readyGuarantee(FleetConfig config) {
    return ReadyGuarantee.describe(config.readyDeadline());
  }

  /** {@code guarantee}: the ready deadline and the failure grace of the ready guarantee. */
  public ReservationsFeature(Vertx vertx, Pool pool, Quotes quotes, QuotesApi quoting, ReservationConfig config,
      int maxHours, Payments payments, Fleet instances, String publicBase, Credentials credentials,
      EventsConfig events, FleetConfig guarantee) {
    ReservationRepository repository = new ReservationRepository(pool, new RefundPolicy(config.cancellationFeeBps()));
    payments.reportTo(new ReservationPayments(vertx, repository, instances));
    Cancellations cancellations = new Cancellations(vertx, repository, payments, instances);
    Extensions extensions = new Extensions(vertx, repository, quoting, payments, config.hold(), publicBase);
    this.bookings = new Bookings(vertx, repository, new ReservationService(vertx, repository, config.hold()), quotes,
        quoting, payments, cancellations, extensions, publicBase, maxHours);
    this.api = new ReservationsApi(bookings);
    this.tokenSpending = new Budgets(pool);
    this.sshKeys = new SshKeysApi(new SshKeyRepository(pool));
    this.idempotencyKeys = new IdempotencyKeys(pool);
    this.live = new LiveUpdates(vertx, credentials, events);
    this.sweeper = new HoldSweeper(vertx, repository);
    HostFailures failures = new HostFailures(vertx, repository, payments, instances);
    this.scheduler = new Scheduler(vertx, repository, instances, STUCK_AFTER, failures, payments,
        new ReadyGuarantee(pool, guarantee.readyDeadline(), failures),
        new Downtime(vertx, repository, guarantee.failureGrace(), failures, payments), cancellations);
    this.schedulerEvery = config.schedulerInterval();
    instances.reportTo(scheduler); // reports of instances another node (or an earlier run) started
  }

  /** Booking, extending, cancelling and reading reservations as the REST API does, for the MCP tools. */
  public Bookings bookings() {
    return bookings;
  }

  /** What API tokens have spent (held or paid, less refunds), for auth's budget reports. */
  public TokenSpending tokenSpending() {
    return tokenSpending;
  }

  /** Lists the reservations a planned maintenance window overlaps, for the fleet. */
  public MaintenanceOverlaps maintenanceOverlaps() {
    return new HostOverlaps();
  }

  /** Forgets Idempotency-Keys older than 24 h (this feature owns the table; a cluster job calls it). */
  public Future<Integer> pruneIdempotencyKeys() {
    return idempotencyKeys.prune();
  }

  /** Schedules this feature's cluster jobs: the hold sweeper and the scheduler. */
  public void scheduleJobs(ClusterJobs jobs) {
    jobs.schedule(EXPIRE_HOLDS, SWEEP_EVERY, sweeper::sweep);
    jobs.schedule(START_AND_END_WINDOWS, schedulerEvery, scheduler::run);
  }

  @Override
  public void bind(RouterBuilder routes) {
    api.bind(routes);
    sshKeys.bind(routes);
    live.bind(routes);
  }
}
