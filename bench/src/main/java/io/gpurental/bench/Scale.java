package io.gpurental.bench;

import io.gpurental.bench.baseline.BaselineServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The scale scenarios: for each fleet size, a fresh gateway whose database gets that many hosts
 * with history ({@code bench/sql/seed-fleet.sql}), the catalog, quote, hold and heartbeat
 * scenarios at the same concurrency, and in the same run the floors: the bare stack's {@code /db}
 * (one indexed row as JSON) and same-SQL routes, and pgbench running the hold's SQL.
 */
@Command(name = "scale", mixinStandardHelpOptions = true,
    description = "The catalog, quote, hold and heartbeat scenarios over seeded fleets of several sizes, with their floors.")
final class Scale implements Callable<Integer> {
  @Option(names = "--sizes", split = ",", description = "Fleet sizes in hosts (default: ${DEFAULT-VALUE}).")
  List<Integer> sizes = List.of(100, 1000);
  @Option(names = "--gateway-jar", description = "The gateway's shaded jar (default: ${DEFAULT-VALUE}).")
  Path gatewayJar = Path.of("gateway/target/gpu-rental-gateway.jar");
  @Option(names = "--seed-sql", description = "The fleet seed script (default: ${DEFAULT-VALUE}).")
  Path seedSql = Path.of("bench/sql/seed-fleet.sql");
  @Option(names = "--concurrency", description = "Virtual clients (and pgbench clients) (default: ${DEFAULT-VALUE}).")
  int concurrency = 16;
  @Option(names = "--warmup", description = "Warm-up seconds per scenario (default: ${DEFAULT-VALUE}).")
  int warmupSeconds = 3;
  @Option(names = "--duration", description = "Measured seconds per scenario (default: ${DEFAULT-VALUE}).")
  int durationSeconds = 10;
  @Option(names = "--agents", description = "Hosts enrolled through the API that send heartbeats (default: ${DEFAULT-VALUE}).")
  int agents = 20;
  @Option(names = "--only", split = ",", description = "Only the gateway's scenarios whose names contain one of these"
      + " words (e.g. hold,heartbeat), and no floors: for profiling (default: all, with the floors).")
  List<String> only = List.of();
  @Option(names = "--gateway-jvm-option", description = "An extra JVM option for the gateway (repeatable), e.g."
      + " -XX:StartFlightRecording=filename=gateway.jfr,settings=profile.")
  List<String> gatewayJvmOptions = List.of();
  @Option(names = "--out", description = "Where the Markdown tables go (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("bench/target/scale-results.md");

  @Override
  public Integer call() throws Exception {
    if (!Files.isRegularFile(gatewayJar) || !Files.isRegularFile(seedSql)) {
      System.err.println("Needs " + gatewayJar + " (mvn -B -DskipTests package) and " + seedSql
          + ": run from the repository's root.");
      return 2;
    }
    List<ScaleReport.Size> measured = new ArrayList<>();
    for (int size : sizes) {
      measured.add(size(size));
      // each size's tables as soon as they exist: a long run that is stopped keeps what it measured
      write(ScaleReport.render(measured, concurrency, warmupSeconds, durationSeconds));
    }
    System.out.println(ScaleReport.render(measured, concurrency, warmupSeconds, durationSeconds));
    return 0;
  }

  private ScaleReport.Size size(int hosts) throws Exception {
    String before = Report.machine();
    Path work = Files.createTempDirectory("gpu-bench-scale-" + hosts + "-");
    Vertx vertx = Vertx.vertx();
    int pgPort = FreePort.next();
    ScaleReport.Size size = new ScaleReport.Size(hosts);
    // the figures job every minute, so the seeded offers have theirs within the run (default: 15);
    // the demo history is left out: the seed writes this run's
    try (ServerProcess gateway = GatewayLauncher.start(gatewayJar, work, pgPort,
        Map.of("GATEWAY_PRICING_OFFER_FIGURES_REFRESH_MINUTES", "1", "GATEWAY_SANDBOX_SEED_HISTORY", "false"),
        gatewayJvmOptions);
        RssSampler rss = new RssSampler(gateway.pid())) {
      log(hosts + " hosts: gateway pid " + gateway.pid() + " at " + gateway.uri() + ", log " + gateway.log());
      Fixtures fixtures = new Fixtures(vertx, gateway.uri());
      String operator = fixtures.token("operator", scopes().add("operator")).await();
      String renter = fixtures.token("alice", scopes()).await();
      // holds by agents whose budget sends every reservation to its owner's approval: held GPUs,
      // no payment (a checkout would time the Stripe sandbox, not the hold); a token per client,
      // since a token's budget is spent one transaction at a time
      List<String> agentTokens = new ArrayList<>();
      for (int i = 0; i < concurrency; i++) {
        agentTokens.add(fixtures.token("bob", scopes(), new JsonObject().put("approval_threshold", 0)).await());
      }
      List<Fixtures.Host> enrolled = fixtures.hosts(operator, agents, 250).await();
      Pool pool = database(vertx, pgPort);
      seed(pool, size);
      size.machineBefore = before + "; after the seed: " + Report.machine();
      ScaleScenarios scenarios = new ScaleScenarios(hosts, Instant.now());
      measureGateway(new LoadGenerator(vertx, gateway.uri()), gateway.pid(), rss, scenarios, renter, agentTokens,
          enrolled, pool, size);
      measureFloors(vertx, work, pgPort, scenarios, renter, enrolled, size);
      size.overlaps += Overlaps.count(pool);
      pool.close().await();
      size.blocked = gateway.logLines("has been blocked").size();
      size.machineAfter = Report.machine();
    } finally {
      vertx.close().await();
      Main.deleteTree(work.resolve("postgres"));
    }
    return size;
  }

  private void seed(Pool pool, ScaleReport.Size size) throws Exception {
    long seedStart = System.nanoTime();
    OffsetDateTime seeded = FleetSeed.seed(pool, seedSql, size.hosts).await();
    size.seedSeconds = (System.nanoTime() - seedStart) / 1e9;
    log(size.hosts + " hosts seeded in " + Report.format("%.0f s", size.seedSeconds) + "; waiting for their figures");
    FleetSeed.awaitFigures(pool, seeded, Duration.ofMinutes(size.hosts >= 5000 ? 6 : 3));
  }

  /** The gateway's scenarios, the overlaps after the holds, CPU per heartbeat and memory. */
  private void measureGateway(LoadGenerator load, long pid, RssSampler rss, ScaleScenarios scenarios, String renter,
      List<String> agentTokens, List<Fixtures.Host> enrolled, Pool pool, ScaleReport.Size size) {
    for (Scenario scenario : List.of(Scenarios.health(), ScaleScenarios.version(), scenarios.cachedSearch(),
        scenarios.filteredSearch(), scenarios.workloadSearch(), scenarios.offerPage(), scenarios.quote(renter),
        scenarios.holdAndRelease(agentTokens))) {
      if (selected(scenario)) {
        size.gateway.add(measure(load, scenario, size.hosts, "gateway"));
      }
    }
    size.overlaps = Overlaps.count(pool);
    if (selected(Scenarios.heartbeats(enrolled))) {
      measureHeartbeats(load, pid, enrolled, size);
    }
    size.rssMixedMaxMiB = rss.max();
    size.rssFloodBeforeMiB = ProcessStats.rssMiB(pid);
    rss.resetMax();
    if (selected(scenarios.anonymousFlood())) {
      size.gateway.add(measure(load, scenarios.anonymousFlood(), size.hosts, "gateway"));
    }
    size.rssFloodAfterMiB = ProcessStats.rssMiB(pid);
    size.rssFloodMaxMiB = rss.max();
  }

  /** The heartbeats of the enrolled hosts, and the gateway's CPU time per heartbeat. */
  private void measureHeartbeats(LoadGenerator load, long pid, List<Fixtures.Host> enrolled, ScaleReport.Size size) {
    double cpuBefore = ProcessStats.cpuSeconds(pid);
    Result heartbeats = measure(load, Scenarios.heartbeats(enrolled), size.hosts, "gateway");
    // the CPU time covers the warm-up too: divided by the heartbeats of both, at the measured rate
    size.heartbeatCpuSecondsEach = (ProcessStats.cpuSeconds(pid) - cpuBefore) / Math.max(1, heartbeats.requests()
        + heartbeats.requests() * warmupSeconds / Math.max(1, durationSeconds));
    size.gateway.add(heartbeats);
  }

  /** The bare stack's /db and same-SQL routes, then pgbench's hold, on the same database. */
  private void measureFloors(Vertx vertx, Path work, int pgPort, ScaleScenarios scenarios, String renter,
      List<Fixtures.Host> enrolled, ScaleReport.Size size) throws Exception {
    if (only.isEmpty()) {
      measureBare(vertx, work, pgPort, scenarios, renter, enrolled, size);
    }
    if (selected(scenarios.holdAndRelease(List.of("-")))) {
      measurePgBench(work, pgPort, scenarios, size);
    }
  }

  private void measureBare(Vertx vertx, Path work, int pgPort, ScaleScenarios scenarios, String renter,
      List<Fixtures.Host> enrolled, ScaleReport.Size size) throws Exception {
    int barePort = FreePort.next();
    try (ServerProcess bare = ServerProcess.start("baseline", List.of("-cp", ownJar(), BaselineServer.class.getName(),
        Integer.toString(barePort), Integer.toString(pgPort)), Map.of(), work.resolve("baseline.log"), barePort,
        "/health/live")) {
      LoadGenerator bareLoad = new LoadGenerator(vertx, bare.uri());
      for (Scenario scenario : List.of(scenarios.db(), Scenarios.health(), scenarios.quote(renter),
          Scenarios.heartbeats(enrolled))) {
        size.bare.put(scenario.name(), measure(bareLoad, scenario, size.hosts, "bare"));
      }
    }
  }

  private void measurePgBench(Path work, int pgPort, ScaleScenarios scenarios, ScaleReport.Size size)
      throws Exception {
    var pgbench = PgBench.binary();
    if (pgbench.isEmpty()) {
      log("no pgbench on the PATH: the hold's floor is missing from this run");
      return;
    }
    size.pgbench = PgBench.run(pgbench.get(), work, pgPort, size.hosts, scenarios.pgbenchBaseEpoch(), concurrency,
        durationSeconds);
    log(Report.format("%d hosts: pgbench hold + release %.0f tps, mean %.2f ms", size.hosts, size.pgbench.tps(),
        size.pgbench.latencyMs()));
  }

  private boolean selected(Scenario scenario) {
    return only.isEmpty() || only.stream().anyMatch(word -> scenario.name().contains(word));
  }

  private Result measure(LoadGenerator load, Scenario scenario, int hosts, String server) {
    Result result = load.run(scenario, concurrency, Duration.ofSeconds(warmupSeconds),
        Duration.ofSeconds(durationSeconds)).await();
    log(Report.format("%6d hosts  %-48s %-8s %8.0f req/s  p50 %7.2f ms  p99 %8.2f ms  errors %d%s", hosts,
        scenario.name(), server, result.requestsPerSecond(), result.millis(50), result.millis(99), result.errors(),
        result.firstError() == null ? "" : " (" + result.firstError() + ")"));
    return result;
  }

  private void write(String report) throws java.io.IOException {
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, report);
  }

  private static JsonArray scopes() {
    return new JsonArray().add("catalog:read").add("reservations:write").add("payments:write");
  }

  private static Pool database(Vertx vertx, int port) {
    return PgBuilder.pool().with(new PoolOptions().setMaxSize(2))
        .connectingTo(new PgConnectOptions().setHost(Loopback.HOST).setPort(port)
        .setDatabase("postgres").setUser("postgres")).using(vertx).build();
  }

  private static String ownJar() throws Exception {
    return Path.of(Scale.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  private static void log(String line) {
    System.out.println("[bench] " + line);
  }
}
