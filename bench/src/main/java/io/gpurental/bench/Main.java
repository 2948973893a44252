package io.gpurental.bench;

import io.gpurental.bench.baseline.BaselineServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the benchmarks: starts a gateway from its jar (embedded defaults, a temp data directory,
 * free loopback ports), makes the fixtures through its API, measures each scenario, then starts
 * the bare-stack baseline on the same database and measures it the same way, and prints the table.
 */
@Command(name = "gpu-bench", mixinStandardHelpOptions = true, subcommands = Scale.class,
    description = "Closed-loop benchmarks of the gateway against the bare-stack baseline (loopback only).")
public final class Main implements Callable<Integer> {
  @Option(names = "--gateway-jar", description = "The gateway's shaded jar (default: ${DEFAULT-VALUE}).")
  Path gatewayJar = Path.of("gateway/target/gpu-rental-gateway.jar");
  @Option(names = "--concurrency", description = "Virtual clients, each waiting for its answer (default: ${DEFAULT-VALUE}).")
  int concurrency = 16;
  @Option(names = "--warmup", description = "Warm-up seconds per scenario, not recorded (default: ${DEFAULT-VALUE}).")
  int warmupSeconds = 5;
  @Option(names = "--duration", description = "Measured seconds per scenario (default: ${DEFAULT-VALUE}).")
  int durationSeconds = 15;
  @Option(names = "--hosts", description = "Enrolled 8-GPU hosts that send heartbeats (default: ${DEFAULT-VALUE}).")
  int hosts = 20;
  @Option(names = "--out", description = "Where the Markdown table goes (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("bench/target/benchmark-results.md");

  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    if (!Files.isRegularFile(gatewayJar)) {
      System.err.println("No gateway jar at " + gatewayJar + ": build it first (mvn -B -DskipTests package).");
      return 2;
    }
    String before = Report.machine();
    Path work = Files.createTempDirectory("gpu-bench-");
    Vertx vertx = Vertx.vertx();
    int pgPort = FreePort.next();
    List<Result> gatewayResults = new ArrayList<>();
    Map<String, Result> bareResults = new LinkedHashMap<>();
    List<String> blocked = new ArrayList<>();
    try (ServerProcess gateway = GatewayLauncher.start(gatewayJar, work, pgPort)) {
      log("gateway pid " + gateway.pid() + " at " + gateway.uri() + ", log " + gateway.log());
      Fixtures fixtures = new Fixtures(vertx, gateway.uri());
      String operator = fixtures.token("operator", scopes().add("operator")).await();
      String renter = fixtures.token("alice", scopes()).await();
      List<Fixtures.Host> fleet = fixtures.hosts(operator, hosts, 250).await();
      Pool pool = database(vertx, pgPort);
      History.seed(pool, fleet).await();
      pool.close().await();
      log(fleet.size() + " hosts enrolled and activated, 30 days of hourly energy seeded");

      List<Scenario> measured = List.of(Scenarios.health(), Scenarios.catalog(), Scenarios.quote(renter, fleet),
          Scenarios.heartbeats(fleet), Scenarios.economics(operator));
      LoadGenerator load = new LoadGenerator(vertx, gateway.uri());
      for (Scenario scenario : measured) {
        gatewayResults.add(measure(load, scenario, "gateway"));
      }
      int barePort = FreePort.next();
      try (ServerProcess bare = ServerProcess.start("baseline", List.of("-cp", ownJar(), BaselineServer.class.getName(),
          Integer.toString(barePort), Integer.toString(pgPort)), Map.of(), work.resolve("baseline.log"), barePort,
          "/health/live")) {
        LoadGenerator bareLoad = new LoadGenerator(vertx, bare.uri());
        for (Scenario scenario : measured) {
          bareResults.put(scenario.name(), measure(bareLoad, scenario, "bare"));
        }
        blocked.addAll(bare.logLines("has been blocked"));
      }
      blocked.addAll(gateway.logLines("has been blocked"));
    } finally {
      vertx.close().await();
      deleteTree(work.resolve("postgres"));
    }
    String report = "Machine before: " + before + "\nMachine after:  " + Report.machine() + "\nConcurrency "
        + concurrency + ", warm-up " + warmupSeconds + " s, measured " + durationSeconds + " s per scenario, "
        + hosts + " hosts\n\n" + Report.table(gatewayResults, bareResults) + "\nBlocked-thread warnings: "
        + (blocked.isEmpty() ? "none" : blocked.size() + "\n" + String.join("\n", blocked)) + "\nLogs: " + work + "\n";
    System.out.println(report);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, report);
    return 0;
  }

  private Result measure(LoadGenerator load, Scenario scenario, String server) {
    Result result = load.run(scenario, concurrency, Duration.ofSeconds(warmupSeconds),
        Duration.ofSeconds(durationSeconds)).await();
    log(Report.format("%-28s %-8s %8.0f req/s  p50 %6.2f ms  p99 %7.2f ms  errors %d%s", scenario.name(), server,
        result.requestsPerSecond(), result.millis(50), result.millis(99), result.errors(),
        result.firstError() == null ? "" : " (" + result.firstError() + ")"));
    return result;
  }

  private static JsonArray scopes() {
    return new JsonArray().add("catalog:read").add("reservations:write").add("payments:write");
  }

  private static Pool database(Vertx vertx, int port) {
    return PgBuilder.pool().connectingTo(new PgConnectOptions().setHost(Loopback.HOST).setPort(port)
        .setDatabase("postgres").setUser("postgres")).using(vertx).build();
  }

  private static String ownJar() throws Exception {
    return Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /** The run's database is throw-away; its logs stay for reading. */
  static void deleteTree(Path dir) throws java.io.IOException {
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static void log(String line) {
    System.out.println("[bench] " + line);
  }
}
