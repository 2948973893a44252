package io.gpurental.gateway.reliability;

import io.gpurental.gateway.platform.db.DatabaseTarget;
import io.gpurental.gateway.platform.db.Migrations;
import io.gpurental.gateway.testing.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * A cluster of gateway JVMs on loopback, for tests about faults: one embedded PostgreSQL of its own
 * ({@link ClusterDatabase}: migrated once, before any node starts, reached through a freezable
 * proxy, restartable, its processes freezable), one Hazelcast cluster with a name of its own and
 * every member listed, each node on ports of its own.
 * Usable by the benchmark too: nothing here depends on JUnit.
 */
public final class GatewayCluster implements AutoCloseable {
  /** A node start took up to 2 min on a machine loaded to 20 on 2 cores; three start at once. */
  public static final Duration START_TIMEOUT = Duration.ofMinutes(4);

  private final ClusterDatabase database;
  private final List<GatewayProcess> nodes = new ArrayList<>();
  private final Path logDirectory;

  private GatewayCluster(ClusterDatabase database, Path logDirectory) {
    this.database = database;
    this.logDirectory = logDirectory;
  }

  /** Starts PostgreSQL and {@code size} nodes and waits until each is ready and sees all the others. */
  public static GatewayCluster start(int size, Map<String, String> extraSettings) {
    Path logDirectory;
    try {
      // under the module's target/, so `mvn clean` removes the nodes' logs and state
      logDirectory = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "gateway-cluster-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ClusterDatabase database = new ClusterDatabase(logDirectory.resolve("postgres"));
    Migrations.migrate(new DatabaseTarget("127.0.0.1", database.port(), "postgres", "postgres", ""));
    GatewayCluster cluster = new GatewayCluster(database, logDirectory);
    try {
      cluster.launch(size, extraSettings);
      List<CompletableFuture<Void>> ready = cluster.nodes.stream()
          .map(node -> CompletableFuture.runAsync(() -> node.awaitReady(size, START_TIMEOUT))).toList();
      ready.forEach(CompletableFuture::join);
      return cluster;
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  private void launch(int size, Map<String, String> extraSettings) {
    String clusterName = "faults-" + UUID.randomUUID();
    int[] memberPorts = new int[size];
    List<String> members = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      memberPorts[i] = FreePorts.next();
      members.add("127.0.0.1:" + memberPorts[i]);
    }
    for (int i = 0; i < size; i++) {
      Map<String, String> settings = new HashMap<>();
      int httpPort = FreePorts.next();
      settings.put("GATEWAY_HTTP_PORT", Integer.toString(httpPort));
      settings.put("GATEWAY_HTTP_PUBLIC_URL", "http://127.0.0.1:" + httpPort);
      settings.put("GATEWAY_HTTP_DRAIN_TIMEOUT_SECONDS", "10");
      // a node stopped with SIGTERM stays in service while it reports unready, as a load balancer needs
      settings.put("GATEWAY_HTTP_UNREADY_GRACE_MS", "1500");
      settings.put("GATEWAY_MANAGEMENT_PORT", Integer.toString(FreePorts.next()));
      settings.put("GATEWAY_DB_URL", "postgresql://postgres@127.0.0.1:" + database.proxyPort() + "/postgres");
      settings.put("GATEWAY_CLUSTER_NAME", clusterName);
      settings.put("GATEWAY_CLUSTER_PORT", Integer.toString(memberPorts[i]));
      settings.put("GATEWAY_CLUSTER_PORT_COUNT", "1");
      settings.put("GATEWAY_CLUSTER_MEMBERS", String.join(",", members));
      settings.put("GATEWAY_SANDBOX_SEED_HISTORY", "false");
      settings.put("GATEWAY_RATE_LIMITS_AGENT_POLLS_PER_MINUTE", "100000");
      settings.putAll(extraSettings);
      nodes.add(GatewayProcess.launch("node" + (i + 1), settings, logDirectory));
    }
  }

  public List<GatewayProcess> nodes() {
    return nodes;
  }

  public GatewayProcess node(int index) {
    return nodes.get(index);
  }

  /** Starts node {@code index} again after it ended, and waits until it is ready with {@code members} members. */
  public GatewayProcess restart(int index, int members) {
    return restart(index, members, Map.of());
  }

  /** As {@link #restart(int, int)}, with {@code changed} settings for the new process. */
  public GatewayProcess restart(int index, int members, Map<String, String> changed) {
    GatewayProcess node = nodes.get(index).relaunch(changed);
    nodes.set(index, node);
    node.awaitReady(members, START_TIMEOUT);
    return node;
  }

  /** Where the nodes' output goes (one log file each), for a failure's message. */
  public Path logDirectory() {
    return logDirectory;
  }

  /** PostgreSQL stops answering (sockets open and silent, as a hung server), through the proxy. */
  public void freezeDatabase() {
    database.freezeProxy();
  }

  public void thawDatabase() {
    database.thawProxy();
  }

  /** PostgreSQL's own processes stopped with SIGSTOP (postmaster and backends), as a paused VM. */
  public void freezeDatabaseProcesses() {
    database.freezeProcesses();
  }

  public void thawDatabaseProcesses() {
    database.thawProcesses();
  }

  /** PostgreSQL shut down (fast: sessions ended); {@link #startDatabase} starts it on the same data. */
  public void stopDatabase() {
    database.stop();
  }

  /** Starts PostgreSQL again on its data directory and port; returns once it accepts connections. */
  public void startDatabase() {
    database.start();
  }

  /** A direct connection to PostgreSQL (not through the proxy), for the test's own checks. */
  public Connection connection() {
    try {
      return database.connection();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot connect to the cluster's PostgreSQL", e);
    }
  }

  /** The first column of the first row of {@code query}, as a long. */
  public long count(String query) {
    try (Connection connection = connection(); Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(query)) {
      row.next();
      return row.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException("query failed: " + query, e);
    }
  }

  /** The first column of the first row of {@code query}, as text. */
  public String text(String query) {
    try (Connection connection = connection(); Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(query)) {
      row.next();
      return row.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException("query failed: " + query, e);
    }
  }

  /** The sandbox's fault and test controls' key, which the first node made for this database. */
  public String faultControlKey() {
    return text("SELECT key FROM sandbox_fault_control_key");
  }

  public void execute(String sql) {
    try (Connection connection = connection(); Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("statement failed: " + sql, e);
    }
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    for (GatewayProcess node : nodes) {
      try {
        node.close();
      } catch (RuntimeException | AssertionError e) {
        failure = failure == null ? new IllegalStateException("stopping " + node.name(), e) : failure;
      }
    }
    try {
      database.close();
    } catch (RuntimeException e) {
      failure = failure == null ? e : failure;
    }
    if (failure != null) {
      throw failure;
    }
  }
}
