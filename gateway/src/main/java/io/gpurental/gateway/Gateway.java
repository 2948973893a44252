package io.gpurental.gateway;

import io.gpurental.gateway.agents.AgentsFeature;
import io.gpurental.gateway.auth.AuthFeature;
import io.gpurental.gateway.catalog.CatalogFeature;
import io.gpurental.gateway.catalog.DemoFleet;
import io.gpurental.gateway.catalog.OfferFigures;
import io.gpurental.gateway.payments.PaymentsFeature;
import io.gpurental.gateway.pricing.CurrentTerms;
import io.gpurental.gateway.pricing.PriceTerms;
import io.gpurental.gateway.pricing.Quotes;
import io.gpurental.gateway.fleet.FleetFeature;
import io.gpurental.gateway.fleet.ImageJson;
import io.gpurental.gateway.operator.EconomicsFeature;
import io.gpurental.gateway.operator.economics.DemoHostCosts;
import io.gpurental.gateway.operator.OperatorFeature;
import io.gpurental.gateway.operator.admin.AdministrationFeature;
import io.gpurental.gateway.operator.alerts.AlertsFeature;
import io.gpurental.gateway.reservations.ReservationsFeature;
import io.gpurental.gateway.fleet.NoHostAgents;
import io.gpurental.gateway.fleet.DemoHosts;
import io.gpurental.gateway.sandbox.DemoHistory;
import io.gpurental.gateway.sandbox.FaultControlKey;
import io.gpurental.gateway.sandbox.hosts.DemoAgents;
import io.gpurental.gateway.config.GatewayConfig;
import io.gpurental.gateway.config.ManagementConfig;
import io.gpurental.gateway.config.Mode;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.platform.ratelimit.RateLimiter;
import io.gpurental.gateway.sandbox.identity.SandboxIdentityProviders;
import io.gpurental.gateway.sandbox.stripe.StripeSandbox;
import io.gpurental.gateway.platform.ApiContract;
import io.gpurental.gateway.platform.BuildInfo;
import io.gpurental.gateway.platform.NodeHealth;
import io.gpurental.gateway.platform.NodeMetrics;
import io.gpurental.gateway.platform.PlatformApi;
import io.gpurental.gateway.platform.Readiness;
import io.gpurental.gateway.platform.cluster.HazelcastSetup;
import io.gpurental.gateway.platform.cluster.SameDatabase;
import io.gpurental.gateway.platform.db.DatabaseIdentity;
import io.gpurental.gateway.platform.db.DatabasePool;
import io.gpurental.gateway.platform.db.DatabaseTarget;
import io.gpurental.gateway.platform.db.EmbeddedDatabase;
import io.gpurental.gateway.platform.db.Migrations;
import io.gpurental.gateway.platform.db.NodeStarts;
import io.gpurental.gateway.platform.http.HttpSetup;
import io.gpurental.gateway.platform.http.HttpVerticle;
import io.gpurental.gateway.platform.http.ManagementVerticle;
import io.gpurental.gateway.platform.http.PortInUse;
import io.gpurental.gateway.platform.jobs.ClusterJobs;
import io.gpurental.gateway.platform.jobs.JobLocks;
import io.gpurental.gateway.platform.start.StartStep;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.agents.approvals.ApprovalLinksFeature;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.ext.healthchecks.CheckResult;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.sqlclient.Pool;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running gateway node. {@link #start} boots it in the documented order (PostgreSQL,
 * migrations, cluster member, HTTP) without blocking the caller; {@link #stop} drains and shuts
 * down in reverse.
 */
public final class Gateway {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);
  public static final String PRUNE_IDEMPOTENCY_KEYS = "reservations.prune-idempotency-keys";
  public static final String PRUNE_OAUTH = "auth.prune-oauth";
  public static final String PRUNE_STRIPE_EVENTS = "payments.prune-stripe-events";
  private static final Duration PRUNE_EVERY = Duration.ofHours(1);
  /** How long an event loop may be blocked before the warning carries its stack trace. */
  private static final Duration BLOCKED_STACK_AFTER = Duration.ofSeconds(2);
  /** Longest a stopping node waits to leave the cluster (under the test harness's 60 s for a stop). */
  private static final Duration CLUSTER_LEAVE_TIMEOUT = Duration.ofSeconds(20);

  private final GatewayConfig config;
  private final Optional<EmbeddedDatabase> embedded;
  private final Vertx vertx;
  private final HazelcastClusterManager cluster;
  private final Pool pool;
  private final Readiness readiness;
  private final BuildInfo buildInfo;
  private final HealthChecks readinessChecks;
  private final ClusterJobs jobs;
  private List<Feature> features = List.of();
  private volatile String faultControlKey;
  /** Sandbox mode: the demo fleet's simulated host agents (null otherwise). */
  private DemoAgents demoAgents;
  private final PrometheusMeterRegistry metrics;

  private Gateway(GatewayConfig config, Optional<EmbeddedDatabase> embedded, Vertx vertx,
      HazelcastClusterManager cluster, Pool pool, Readiness readiness, BuildInfo buildInfo,
      PrometheusMeterRegistry metrics) {
    this.config = config;
    this.embedded = embedded;
    this.vertx = vertx;
    this.cluster = cluster;
    this.pool = pool;
    this.readiness = readiness;
    this.buildInfo = buildInfo;
    this.readinessChecks = NodeHealth.readiness(vertx, pool, cluster, readiness);
    this.metrics = metrics;
    this.jobs = new ClusterJobs(vertx, metrics, cluster::getNodes,
        JobLocks.hazelcast(vertx, cluster.getHazelcastInstance()));
  }

  /**
   * Boots a node. Blocking steps (embedded PostgreSQL, Flyway) run on a boot thread; the chain is
   * kept off Vert.x contexts so that a failed start can close Vert.x and still report the cause.
   */
  public static Future<Gateway> start(GatewayConfig config) {
    CompletableFuture<Gateway> started = CompletableFuture.supplyAsync(() -> prepareDatabase(config))
        .thenCompose(db -> startNode(config, db).whenCompleteAsync((gateway, failure) -> {
          if (failure != null) {
            db.embedded().ifPresent(EmbeddedDatabase::close);
          }
        }));
    return Future.fromCompletionStage(started);
  }

  private record PreparedDatabase(Optional<EmbeddedDatabase> embedded, DatabaseTarget target, String schemaVersion,
      DatabaseIdentity identity) {}

  private static PreparedDatabase prepareDatabase(GatewayConfig config) {
    warmUpBufferAllocator();
    Optional<EmbeddedDatabase> embedded = config.db().embedded()
        ? Optional.of(blockingStep("starting embedded PostgreSQL",
            () -> EmbeddedDatabase.start(config.db().embeddedDataDir(), config.db().embeddedPort())))
        : Optional.empty();
    try {
      DatabaseTarget target = embedded.map(db -> DatabaseTarget.embedded(db.port()))
          .orElseGet(() -> DatabaseTarget.fromUrl(config.db().url().orElseThrow(), config.db()));
      String schemaVersion = blockingStep("migrating the database", () -> Migrations.migrate(target));
      DatabaseIdentity identity = blockingStep("reading the database's identity", () -> DatabaseIdentity.of(target));
      return new PreparedDatabase(embedded, target, schemaVersion, identity);
    } catch (RuntimeException e) {
      embedded.ifPresent(EmbeddedDatabase::close);
      throw e;
    }
  }

  /**
   * Netty's first buffer allocation initialises its JFR event class, which loads the JDK's flight
   * recorder metadata: on a busy machine that held the first PostgreSQL connection's event loop
   * for over 4 s (BlockedThreadChecker: AllocateChunkEvent.<clinit> under PgEncoder.flush). Done
   * here, on the boot thread, it costs no event loop anything.
   */
  private static void warmUpBufferAllocator() {
    io.netty.buffer.ByteBuf buffer = new io.netty.buffer.AdaptiveByteBufAllocator().directBuffer(1024);
    buffer.release();
    // the features are built on an event loop; the classes their constructors initialise first
    // (read from the jar) held it 2.4 s on a busy machine (stripe-java's RequestTelemetry under
    // PaymentsFeature, Vert.x's HttpClientAgent under WebClient.create): load them here instead
    for (String name : PRELOADED) {
      try {
        Class.forName(name, true, Gateway.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        LOG.debug("Could not preload {}: {}", name, e.toString());
      }
    }
  }

  private static final List<String> PRELOADED = List.of("com.stripe.net.RequestTelemetry", "com.stripe.StripeClient",
      "io.vertx.core.http.HttpClientAgent", "io.vertx.ext.web.client.WebClient",
      // the first HTTP connection's codec (the demo agents' and webhooks' client, the server):
      // loading them held an event loop 2.1 s with three nodes starting on a saturated machine
      "io.netty.handler.codec.http.HttpClientCodec", "io.netty.handler.codec.http.HttpClientCodec$Decoder",
      "io.netty.handler.codec.http.HttpClientCodec$Encoder", "io.netty.handler.codec.http.HttpServerCodec",
      "io.netty.handler.codec.http.HttpServerCodec$HttpServerRequestDecoder",
      "io.netty.handler.codec.http.HttpServerCodec$HttpServerResponseEncoder");

  /** A blocking start step (on the boot thread, never an event loop) whose failure names it. */
  private static <T> T blockingStep(String name, java.util.function.Supplier<T> step) {
    long started = System.nanoTime();
    try {
      return step.get();
    } catch (RuntimeException e) {
      throw StartStep.failed(name, e, started);
    }
  }

  private static CompletableFuture<Gateway> startNode(GatewayConfig config, PreparedDatabase db) {
    HazelcastClusterManager cluster = HazelcastSetup.clusterManager(config.cluster());
    PrometheusMeterRegistry metrics = NodeMetrics.registry();
    VertxOptions options = new VertxOptions()
        .setMetricsOptions(NodeMetrics.vertxOptions())
        // a blocked event loop is reported with its stack trace from the first warning on
        .setWarningExceptionTime(BLOCKED_STACK_AFTER.toNanos()).setWarningExceptionTimeUnit(TimeUnit.NANOSECONDS)
        .setEventBusOptions(new EventBusOptions()
            .setHost(config.cluster().host())
            .setPort(config.cluster().eventBusPort()));
    long joining = System.nanoTime();
    return Vertx.builder().with(options).withClusterManager(cluster)
        .withMetrics(new MicrometerMetricsFactory(metrics)).buildClustered()
        .toCompletionStage().toCompletableFuture()
        .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
            StartStep.failed("joining the cluster", unwrap(failure), joining)))
        .thenComposeAsync(vertx -> {
          NodeMetrics.bindJvmMetrics(metrics);
          Gateway gateway = new Gateway(config, db.embedded(), vertx, cluster, pool(vertx, config, db),
              new Readiness(), new BuildInfo(BuildInfo.buildVersion(), db.schemaVersion(), config.mode()),
              metrics);
          return StartStep.run(vertx, "checking that the cluster's members use this database",
                  () -> vertx.<Void>executeBlocking(() -> {
                    SameDatabase.verify(cluster.getHazelcastInstance(), db.identity());
                    return null;
                  }))
              .compose(v -> config.mode() == Mode.SANDBOX
                  ? StartStep.run(vertx, "seeding the demo fleet",
                      () -> seedDemoFleet(vertx, gateway.pool, config.pricing().currency(),
                          config.sandbox().seedHistory() ? Optional.of(() -> seedPool(vertx, config, db)) : Optional.empty()))
                      .compose(seeded -> StartStep.run(vertx, "loading the sandbox's fault-control key",
                          () -> FaultControlKey.load(gateway.pool).map(key -> {
                            gateway.faultControlKey = key;
                            LOG.info("Sandbox fault and test controls (/sandbox/…/_test/…) take the key {}"
                                + " (docs/sandbox.md \"Fault controls\")", key);
                            return null;
                          })))
                  : Future.succeededFuture())
              .compose(v -> StartStep.once("starting the HTTP listeners", () -> gateway.deployHttp(metrics)))
              .compose(v -> gateway.demoAgents == null ? Future.succeededFuture()
                  : StartStep.run(vertx, "starting the demo fleet's agents", gateway.demoAgents::start))
              .compose(v -> StartStep.run(vertx, "recording the start in the audit log",
                  () -> NodeStarts.record(gateway.pool, cluster.getNodeId(), gateway.buildInfo)))
              .map(v -> gateway)
              .toCompletionStage()
              .exceptionallyComposeAsync(failure -> closeOffContext(vertx, cluster)
                  .thenCompose(ignored -> CompletableFuture.<Gateway>failedFuture(failure)));
        });
  }

  private static Throwable unwrap(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
  }

  /**
   * The fleet stores the demo hosts and their GPUs, the catalog their offers and prices, the
   * operator their costs; then (once, on a fresh database) the sandbox their last 30 days.
   */
  private static Future<Void> seedDemoFleet(Vertx vertx, Pool pool, String currency,
      Optional<Supplier<Pool>> history) {
    return new DemoHosts(pool).seed().compose(v -> DemoFleet.seed(vertx, pool))
        .compose(v -> DemoHostCosts.seed(pool, currency))
        .compose(v -> history.map(seedPool -> {
          Pool once = seedPool.get();
          return DemoHistory.seed(vertx, once).eventually(once::close);
        }).orElseGet(Future::succeededFuture));
  }

  /**
   * The history seed aggregates 30 days of samples in a few statements, which on a saturated
   * laptop outlast the request pool's statement limit (and its silence limit): it gets a one-off
   * connection of its own with a limit meant for a seed, not a request.
   */
  private static Pool seedPool(Vertx vertx, GatewayConfig config, PreparedDatabase db) {
    return DatabasePool.create(vertx, config.db().forLongStatements(DEMO_HISTORY_STATEMENT_LIMIT), db.target());
  }

  private static final Duration DEMO_HISTORY_STATEMENT_LIMIT = java.time.Duration.ofMinutes(2);

  private static Pool pool(Vertx vertx, GatewayConfig config, PreparedDatabase db) {
    return DatabasePool.create(vertx, config.db(), db.target());
  }

  /**
   * Closes Vert.x, which leaves the cluster, from a plain thread: a close started on one of its own
   * event loops would try to report completion on a loop that has just terminated. Leaving right
   * after another member left once took more than 60 s; the clustered state is ephemeral, so after
   * {@link #CLUSTER_LEAVE_TIMEOUT} the node terminates Hazelcast and stops without it.
   */
  private static CompletableFuture<Void> closeOffContext(Vertx vertx, HazelcastClusterManager cluster) {
    return CompletableFuture.supplyAsync(vertx::close).thenCompose(Future::toCompletionStage)
        .orTimeout(CLUSTER_LEAVE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
        .exceptionallyAsync(failure -> {
          Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
          if (!(cause instanceof TimeoutException)) {
            throw failure instanceof CompletionException completion ? completion : new CompletionException(failure);
          }
          LOG.warn("Leaving the cluster did not finish within {} s; terminating Hazelcast and stopping without it",
              CLUSTER_LEAVE_TIMEOUT.toSeconds());
          cluster.getHazelcastInstance().getLifecycleService().terminate();
          return null;
        });
  }

  private Future<Void> deployHttp(PrometheusMeterRegistry metrics) {
    // building the features loads and initialises hundreds of classes (read from the jar): on a
    // busy machine that held an event loop 2-3 s, so it runs on a worker; what they register
    // (event-bus consumers, timers) still belongs to this start's context
    return ApiContract.load(vertx, config.http().publicUrl())
        .compose(contract -> AgentsFeature.declarations(vertx).compose(mcp ->
            vertx.executeBlocking(() -> features(contract, metrics, mcp), false).map(built -> {
              features = built;
              return contract;
            })))
        .compose(contract -> {
          HealthChecks liveness = NodeHealth.liveness(vertx);
          HttpSetup setup = new HttpSetup(config.http(), contract, features, liveness, readinessChecks);
          int instances = config.http().effectiveInstances();
          return vertx.deployVerticle(() -> new HttpVerticle(setup), new DeploymentOptions().setInstances(instances))
              .recover(failure -> Future.failedFuture(PortInUse.explain(failure, "http.port", config.http().host(),
                  config.http().port())))
              .onSuccess(id -> LOG.info("Gateway {} ({} mode, schema {}) listening on http://{}:{} with {} HTTP"
                  + " instance(s)", buildInfo.version(), config.mode().id(), buildInfo.schemaVersion(),
                  config.http().host(), config.http().port(), instances))
              .compose(id -> deployManagement(liveness, metrics));
        });
  }

  private Future<Void> deployManagement(HealthChecks liveness, PrometheusMeterRegistry metrics) {
    ManagementConfig management = config.management();
    if (!management.enabled()) {
      LOG.info("Management listener off (management.port is 0): no Prometheus metrics");
      return Future.succeededFuture();
    }
    return vertx.deployVerticle(new ManagementVerticle(management, liveness, readinessChecks, metrics))
        .recover(failure -> Future.failedFuture(PortInUse.explain(failure, "management.port", management.host(),
            management.port())))
        .onSuccess(id -> LOG.info("Metrics and health on http://{}:{}", management.host(), management.port()))
        .mapEmpty();
  }

  /** The auth feature's sessions and accounts, as the e-mailed approval links use them. */
  private static ApprovalLinksFeature.Owners approvalOwners(AuthFeature auth) {
    return new ApprovalLinksFeature.Owners() {
      @Override
      public Handler<RoutingContext> sessionHandler() {
        return auth.sessionHandler();
      }

      @Override
      public Future<Optional<String>> emailOf(String accountId) {
        return auth.emailOf(accountId);
      }

      @Override
      public Future<Optional<Principal>> signedIn(RoutingContext ctx) {
        return auth.signedIn(ctx);
      }

      @Override
      public Optional<String> csrfToken(RoutingContext ctx) {
        return auth.csrfToken(ctx);
      }

      @Override
      public void checkForm(RoutingContext ctx, String csrfToken) {
        auth.checkForm(ctx, csrfToken);
      }
    };
  }

  private List<Feature> features(ApiContract contract, PrometheusMeterRegistry metrics,
      AgentsFeature.Declarations mcp) {
    List<Feature> features = new ArrayList<>();
    // hosts an agent enrolled are run by their agents (the sandbox's demo hosts too); the others wait
    FleetFeature fleet = new FleetFeature(vertx, pool, config.fleet(), new NoHostAgents());
    AuthFeature auth = new AuthFeature(vertx, config, pool, contract,
        new RateLimiter(vertx, cluster.getHazelcastInstance()), fleet.credentials());
    features.add(auth);
    features.add(new PlatformApi(buildInfo, contract));
    // the terms of sale live in PostgreSQL; config seeds them once (the cancellation fee too)
    CurrentTerms terms = new CurrentTerms(vertx, pool,
        PriceTerms.fromConfig(config.pricing(), config.reservations().cancellationFeeBps()));
    Quotes quotes = new Quotes(vertx, config.pricing(), terms, ReservationsFeature::cancellationPolicy,
        ReservationsFeature.readyGuarantee(config.fleet()));
    CatalogFeature catalog = new CatalogFeature(vertx, pool, quotes, config.pricing(), fleet.images());
    features.add(catalog);
    String publicBase = config.http().publicUrl().toString().replaceAll("/+$", "");
    PaymentsFeature payments = new PaymentsFeature(vertx, pool, config.stripe(), publicBase, metrics);
    ReservationsFeature reservations = new ReservationsFeature(vertx, pool, quotes, catalog.quotes(),
        config.reservations(), config.pricing().maxHours(), payments.payments(), fleet.fleet(), publicBase,
        auth.credentials(), config.events(), config.fleet());
    features.add(reservations);
    auth.tokenBudgets().spendingFrom(reservations.tokenSpending());
    features.add(payments);
    features.add(fleet);
    fleet.maintenance().listOverlapsWith(reservations.maintenanceOverlaps());
    features.add(new OperatorFeature(fleet.hosts(), catalog.offers(), catalog.gpuModels(), publicBase,
        fleet.maintenance(), fleet.uptimes(), pool)
        .withPricing(catalog.prices(), terms, config.pricing().currency(), pool).withImages(fleet.images()));
    features.add(new AdministrationFeature(pool, auth.accountAdmin(), payments.payments(), payments.oversight()));
    AlertsFeature alerts = new AlertsFeature(vertx, pool, config.alerts(), config.fleet().readyDeadline());
    features.add(alerts);
    alerts.scheduleJobs(jobs);
    features.add(new EconomicsFeature(pool, config.pricing().currency()));
    // agents sit on top: the MCP tools run on the services the REST API uses
    features.add(new AgentsFeature(vertx, mcp, new AgentsFeature.Services(catalog.queries(), catalog.quotes(),
        reservations.bookings(), auth::apiToken, auth::limitWrites, auth.tokenBudgets(),
        () -> terms.get().map(current -> ReservationsFeature.cancellationPolicy(current.cancellationFeeBps())),
        ReservationsFeature.readyGuarantee(config.fleet()),
        () -> ImageJson.renterList(fleet.images())), publicBase, config.pricing().maxHours(),
        buildInfo.version()));
    ApprovalLinksFeature.create(vertx, config.mail(), publicBase, reservations.bookings(), approvalOwners(auth))
        .ifPresent(features::add);
    jobs.schedule(FleetFeature.MARK_OFFLINE, config.fleet().heartbeatInterval(), fleet::markOffline);
    jobs.schedule(FleetFeature.TELEMETRY_ROLLUP, fleet.telemetryRollupEvery(), fleet::rollUpTelemetry);
    jobs.schedule(PRUNE_IDEMPOTENCY_KEYS, PRUNE_EVERY, reservations::pruneIdempotencyKeys);
    jobs.schedule(PRUNE_OAUTH, PRUNE_EVERY, auth::pruneOAuth);
    // uptime moves with time and scheduled prices take effect: a search trusts a row for an hour
    jobs.schedule(OfferFigures.REFRESH_JOB, config.pricing().offerFiguresRefresh(), catalog.figures()::refreshAll);
    jobs.schedule(PRUNE_STRIPE_EVENTS, PRUNE_EVERY, payments::pruneStripeEvents);
    reservations.scheduleJobs(jobs);
    payments.scheduleJobs(jobs);
    if (config.mode() == Mode.SANDBOX) {
      demoAgents = new DemoAgents(vertx, new DemoHosts(pool), publicBase,
          config.reservations().sandboxInstanceReadyAfter(), faultControlKey);
      features.add(demoAgents);
      features.add(new SandboxIdentityProviders(vertx, config.auth(), publicBase));
      if (config.stripe().sandbox()) {
        features.add(new StripeSandbox(vertx, pool, config.stripe(), publicBase, faultControlKey));
      }
    }
    return features;
  }

  /**
   * Stops the node: readiness goes false while the node still serves for the unready grace (so a
   * load balancer polling readiness stops sending before anything is refused), then HTTP servers
   * stop accepting and finish in-flight requests (bounded by the drain timeout), then the pool,
   * the cluster member and embedded PostgreSQL stop.
   */
  public Future<Void> stop() {
    readiness.startDraining();
    jobs.stop();
    long graceMs = config.http().unreadyGrace().toMillis();
    LOG.info("Draining: unready for {} ms while still serving, then finishing in-flight requests (at most {} s)",
        graceMs, config.http().drainTimeout().toSeconds());
    Future<Void> graceOver = graceMs == 0 ? Future.succeededFuture() : vertx.timer(graceMs).mapEmpty();
    // the demo agents first: they talk to these HTTP servers, and another node takes them over
    Future<Void> agentsStopped = graceOver.compose(v -> demoAgents == null ? Future.succeededFuture() : demoAgents.stop());
    CompletableFuture<Void> stopped = agentsStopped
        .eventually(() -> Future.join(vertx.deploymentIDs().stream().map(vertx::undeploy).toList()))
        .eventually(() -> Future.join(features.stream().map(Feature::close).toList()))
        .eventually(() -> pool.close())
        .toCompletionStage().toCompletableFuture()
        .handleAsync((ignored, failure) -> null)
        .thenCompose(ignored -> closeOffContext(vertx, cluster))
        .whenCompleteAsync((ignored, failure) -> {
          embedded.ifPresent(EmbeddedDatabase::close);
          LOG.info("Gateway stopped");
        });
    return Future.fromCompletionStage(stopped);
  }

  /** Whether this node passes its readiness checks (what {@code /health/ready} reports). */
  public Future<Boolean> ready() {
    return readinessChecks.checkStatus().map(CheckResult::isUp);
  }

  public Vertx vertx() {
    return vertx;
  }

  public Pool pool() {
    return pool;
  }

  public HazelcastClusterManager cluster() {
    return cluster;
  }

  /** This node's meters (what Prometheus scrapes). */
  public PrometheusMeterRegistry metrics() {
    return metrics;
  }

  public BuildInfo buildInfo() {
    return buildInfo;
  }

  public GatewayConfig config() {
    return config;
  }

  /** Whether this node runs the sandbox demo fleet's host agents (one node of a cluster does). */
  /** The key of the sandbox's fault and test controls (null outside sandbox mode). */
  public String sandboxFaultControlKey() {
    return faultControlKey;
  }

  public boolean runsDemoAgents() {
    return demoAgents != null && demoAgents.running();
  }

  /** This node's cluster-singleton jobs (tests run them on demand). */
  public ClusterJobs jobs() {
    return jobs;
  }
}
