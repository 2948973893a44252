package io.gpurental.gateway.fleet;

import io.gpurental.gateway.auth.HostCredentials;
import io.gpurental.gateway.config.FleetConfig;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.platform.jobs.JobRun;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The hardware truth: sites, hosts and their GPUs, host agents (enrolment, credentials,
 * heartbeats, desired state, instance reports) and when a host is offline.
 */
public final class FleetFeature implements Feature {
  /** The cluster-singleton job that marks silent hosts offline. */
  public static final String MARK_OFFLINE = "fleet.mark-offline";
  /** The cluster-singleton job that rolls telemetry up into hours and prunes old samples and roll-ups. */
  public static final String TELEMETRY_ROLLUP = "fleet.telemetry-rollup";
  private final FleetConfig config;
  private final HostRepository hosts;
  private final AgentFleet fleet;
  private final Hosts operatorHosts;
  private final AgentApi api;
  private final TelemetryRepository telemetry;
  private final Maintenance maintenance;
  private final Uptimes uptimes;
  private final Images images;

  /** {@code others} starts instances on hosts no agent enrolled (nothing can: {@link NoHostAgents}). */
  public FleetFeature(Vertx vertx, Pool pool, FleetConfig config, Fleet others) {
    this.config = config;
    this.hosts = new HostRepository(pool);
    InstanceRepository instances = new InstanceRepository(pool);
    DesiredStateWaits waits = new DesiredStateWaits(vertx, instances);
    this.fleet = new AgentFleet(instances, waits, others);
    this.operatorHosts = new Hosts(vertx, hosts, fleet, new TelemetryReads(pool, config.telemetry().rawRetention()));
    this.api = new AgentApi(vertx, hosts, instances, waits, fleet, config,
        new Heartbeats(vertx, pool, fleet, config.health()));
    this.telemetry = new TelemetryRepository(pool);
    MaintenanceRepository windows = new MaintenanceRepository(pool);
    this.maintenance = new Maintenance(vertx, windows);
    this.uptimes = new Uptimes(windows);
    this.images = new Images(new ImageRepository(pool), waits);
  }

  /** The port for image templates, the allowed registries and the image a reservation picks. */
  public Images images() {
    return images;
  }

  /** The port reservations start and stop instances through. */
  public Fleet fleet() {
    return fleet;
  }

  /** The port the operator manages hosts through. */
  public Hosts hosts() {
    return operatorHosts;
  }

  /** The port the operator plans maintenance windows through. */
  public Maintenance maintenance() {
    return maintenance;
  }

  /** Each host's uptime, from its status history and maintenance windows. */
  public Uptimes uptimes() {
    return uptimes;
  }

  /** How auth recognises a host credential. */
  public HostCredentials credentials() {
    return hosts::hostOfCredential;
  }

  /** One run of {@link #MARK_OFFLINE}. */
  public Future<Void> markOffline(JobRun run) {
    return operatorHosts.markOffline(config.offlineAfter(), run);
  }

  /** One run of {@link #TELEMETRY_ROLLUP}; every {@link #telemetryRollupEvery()}. */
  public Future<Void> rollUpTelemetry() {
    // catching up at most half the raw retention back, so an hour is only ever written from all its samples
    return telemetry.rollUpAndPrune(config.telemetry().rawRetention().dividedBy(2), config.offlineAfter(),
        config.telemetry().rawRetention(), config.telemetry().rollupRetention());
  }

  public java.time.Duration telemetryRollupEvery() {
    return config.telemetry().rollupEvery();
  }

  @Override
  public void bind(RouterBuilder routes) {
    api.bind(routes);
    ImageJson.bind(routes, images);
  }

  @Override
  public Optional<Predicate<RoutingContext>> provenValid(String operationId) {
    // the hottest route: every host, every heartbeat_interval_seconds
    return "sendHeartbeat".equals(operationId) ? Optional.of(HeartbeatBody::provenValid) : Optional.empty();
  }
}
