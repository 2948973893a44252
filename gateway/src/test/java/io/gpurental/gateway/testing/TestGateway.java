package io.gpurental.gateway.testing;

import io.gpurental.gateway.Gateway;
import io.gpurental.gateway.config.ConfigLoader;
import io.gpurental.gateway.config.GatewayConfig;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real gateway node started in-process for a test: random ports, its own cluster name, and
 * (unless told otherwise) a fresh database on the shared test PostgreSQL.
 */
public final class TestGateway implements AutoCloseable {
  public static final Duration TIMEOUT = Duration.ofSeconds(60);
  /**
   * How long a start may take: on a machine others load (load average 20 on 2 cores) a start took
   * 2 min; its own steps give up within a minute each, naming themselves.
   */
  public static final Duration START_TIMEOUT = Duration.ofMinutes(4);
  /**
   * A catalog search cache lifetime no test waits out, for tests that a change drops cached
   * searches: with it, a search that changes within {@link #AT_ONCE} was dropped by the event.
   */
  public static final String LONG_SEARCH_CACHE = "GATEWAY_PRICING_SEARCH_CACHE_SECONDS=60";
  /** How long a change event may take to drop the cached searches (well within the long lifetime). */
  public static final Duration AT_ONCE = Duration.ofSeconds(20);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Gateway gateway;
  private final String baseUrl;

  private TestGateway(Gateway gateway) {
    this.gateway = gateway;
    this.baseUrl = "http://127.0.0.1:" + gateway.config().http().port();
  }

  /** Settings (as GATEWAY_* variables) for a node of its own on fresh ports and a fresh database. */
  public static Map<String, String> settings() {
    int httpPort = FreePorts.next();
    Map<String, String> env = new HashMap<>();
    env.put("GATEWAY_HTTP_PORT", Integer.toString(httpPort));
    env.put("GATEWAY_HTTP_PUBLIC_URL", "http://127.0.0.1:" + httpPort);
    env.put("GATEWAY_HTTP_DRAIN_TIMEOUT_SECONDS", "10");
    env.put("GATEWAY_HTTP_UNREADY_GRACE_MS", "0");
    env.put("GATEWAY_MANAGEMENT_PORT", Integer.toString(FreePorts.next()));
    env.put("GATEWAY_DB_URL", TestDatabase.newDatabaseUrl());
    env.put("GATEWAY_CLUSTER_NAME", "test-" + UUID.randomUUID());
    env.put("GATEWAY_CLUSTER_PORT", Integer.toString(FreePorts.next()));
    env.put("GATEWAY_CLUSTER_PORT_COUNT", "1");
    // tests poll the desired state in their bounded waits; AbuseLimitsTest tests the limit itself
    env.put("GATEWAY_RATE_LIMITS_AGENT_POLLS_PER_MINUTE", "100000");
    // tests count their own reservations, payments, uptime and incidents; DemoHistoryTest turns it on
    env.put("GATEWAY_SANDBOX_SEED_HISTORY", "false");
    return env;
  }

  /**
   * Settings for member {@code index} of a cluster of {@code hazelcastPorts.length} nodes on
   * loopback that share one cluster name and one database.
   */
  public static Map<String, String> clusterMember(int[] hazelcastPorts, int index, String clusterName,
      String databaseUrl) {
    Map<String, String> settings = settings();
    StringBuilder members = new StringBuilder();
    for (int port : hazelcastPorts) {
      members.append(members.length() == 0 ? "" : ",").append("127.0.0.1:").append(port);
    }
    settings.put("GATEWAY_CLUSTER_PORT", Integer.toString(hazelcastPorts[index]));
    settings.put("GATEWAY_CLUSTER_MEMBERS", members.toString());
    settings.put("GATEWAY_CLUSTER_NAME", clusterName);
    settings.put("GATEWAY_DB_URL", databaseUrl);
    return settings;
  }

  /** Adds {@link #LONG_SEARCH_CACHE} to {@code settings}. */
  public static Map<String, String> withLongSearchCache(Map<String, String> settings) {
    String[] setting = LONG_SEARCH_CACHE.split("=");
    settings.put(setting[0], setting[1]);
    return settings;
  }

  /** Settings for the members of a new two-node cluster (fresh ports, name and database). */
  public static List<Map<String, String>> twoNodeCluster() {
    int[] ports = {FreePorts.next(), FreePorts.next()};
    String name = "cluster-" + UUID.randomUUID();
    String database = TestDatabase.newDatabaseUrl();
    return List.of(clusterMember(ports, 0, name, database), clusterMember(ports, 1, name, database));
  }

  public static TestGateway start() {
    return start(settings());
  }

  public static TestGateway start(Map<String, String> settings) {
    GatewayConfig config = ConfigLoader.load(List.of(), settings);
    return new TestGateway(await(Gateway.start(config), START_TIMEOUT));
  }

  public static <T> T await(Future<T> future) {
    return await(future, TIMEOUT);
  }

  public static <T> T await(Future<T> future, Duration limit) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(limit.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("did not complete: " + e.getMessage(), e);
    }
  }

  public Gateway gateway() {
    return gateway;
  }

  public String url(String path) {
    return baseUrl + path;
  }

  /** A URL on this node's management listener (metrics, health). */
  public String managementUrl(String path) {
    return "http://127.0.0.1:" + gateway.config().management().port() + path;
  }

  public HttpResponse<String> getManagement(String path) {
    return send(HttpRequest.newBuilder(URI.create(managementUrl(path))).GET());
  }

  public HttpResponse<String> get(String path) {
    return send(HttpRequest.newBuilder(URI.create(url(path))).GET());
  }

  public HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      HttpRequest built = request.timeout(Duration.ofSeconds(30)).build();
      HttpResponse<String> response = HTTP.send(built, HttpResponse.BodyHandlers.ofString());
      ResponseContract.check(built, response);
      return response;
    } catch (AssertionError e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("request failed: " + e.getMessage(), e);
    }
  }

  public RowSet<Row> sql(String query) {
    return await(gateway.pool().query(query).execute());
  }

  @Override
  public void close() {
    await(gateway.stop());
  }
}
