package io.gpurental.gateway.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.FakeAgent;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Scenario 8: 200 simulated host agents speak the real protocol ({@link AgentSwarm}: enrol,
 * heartbeats at the gateway's interval, the desired-state long poll, instance reports) to one node
 * of two. Each host gets a paid reservation; half the agents report their instance running, then
 * that node is killed with SIGKILL. The agents fail over to the other node by themselves: each
 * host is asked for exactly its one instance before and after, none vanishes from a host's desired
 * state, and every reservation runs, once.
 */
class AgentsUnderFaultsTest {
  private static final int AGENTS = Integer.getInteger("faults.agents", 200);
  /** Concurrent set-up calls (enrolments, reservations, payments): a few, as an operator's tooling would. */
  private static final int SETUP_CLIENTS = 8;
  private static final Duration PHASE_LIMIT = Duration.ofSeconds(120);
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static GatewayCluster cluster;

  @BeforeAll
  static void start() {
    cluster = GatewayCluster.start(2, Map.of("GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS", "200",
        "GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "1000000", "GATEWAY_DB_POOL_WAIT_TIMEOUT_MS", "60000",
        "GATEWAY_DB_STATEMENT_TIMEOUT_MS", "30000"));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void agentsFailOverToAnotherNodeAndNoInstanceIsLostOrDoubled() throws Exception {
    GatewayProcess victim = cluster.node(0);
    GatewayProcess survivor = cluster.node(1);
    RemoteApi operator = new RemoteApi(survivor, RemoteSignIn.operatorToken(survivor));
    RemoteApi renter = new RemoteApi(survivor, RemoteSignIn.renterToken(survivor, "fleetrenter"));
    String siteId = operator.expect(201, "POST", "/api/v1/operator/sites", new JsonObject()
        .put("name", "Site " + UUID.randomUUID()).put("region", "eu-test").put("country", "de")).getString("id");
    String paymentKey = cluster.faultControlKey();
    ExecutorService setup = Executors.newFixedThreadPool(SETUP_CLIENTS);
    try (AgentSwarm swarm = new AgentSwarm(List.of(victim, survivor))) {
      long started = System.nanoTime();
      inParallel(setup, AGENTS, i -> enrol(swarm, victim, operator, siteId, i));
      swarm.start();
      long enrolled = System.nanoTime();
      inParallel(setup, AGENTS, i -> {
        AgentSwarm.Agent agent = swarm.agents().get(i);
        agent.expected = paidReservation(survivor, renter, agent.offerId, paymentKey);
      });
      long paid = System.nanoTime();
      List<String> reservations = swarm.agents().stream().map(agent -> agent.expected).toList();
      Eventually.eventually("every host asked for its instance", PHASE_LIMIT,
          () -> swarm.agents().stream().filter(agent -> !agent.seen.contains(agent.expected)).count(), left -> left == 0);
      Eventually.eventually("half the instances running", PHASE_LIMIT, () -> running(reservations),
          count -> count == AGENTS / 2);
      long beforeKill = System.nanoTime();

      swarm.faultOn(victim);
      victim.kill();
      swarm.everyoneReports();
      Eventually.eventually("every agent answered by the survivor and its instance reported there", PHASE_LIMIT,
          () -> swarm.agents().stream().filter(agent -> agent.failoverMillis < 0
              || !agent.reportedThrough.contains(survivor.name())).count(), left -> left == 0);
      Eventually.eventually("every instance running", PHASE_LIMIT, () -> running(reservations), count -> count == AGENTS);
      long allRunning = (System.nanoTime() - beforeKill) / 1_000_000;

      long[] failovers = swarm.agents().stream().mapToLong(agent -> agent.failoverMillis).sorted().toArray();
      System.out.printf("Agents under faults: %d agents on the killed node; enrolled in %d ms, %d reservations paid in"
          + " %d ms; after the kill each agent's first call answered by the survivor came after p50 %d ms, p95 %d ms,"
          + " max %d ms; all %d running %d ms after the kill; %d heartbeats; %d calls cut or refused (the killed"
          + " node's), %d answered 503 and retried%n",
          AGENTS, (enrolled - started) / 1_000_000, AGENTS, (paid - enrolled) / 1_000_000,
          failovers[failovers.length / 2], failovers[failovers.length * 95 / 100], failovers[failovers.length - 1],
          AGENTS, allRunning, swarm.agents().stream().mapToInt(agent -> agent.heartbeats.get()).sum(),
          swarm.cutOrRefused.get(), swarm.shed.get());
      assertEquals(List.of(), List.copyOf(swarm.unexpected), "the agents got only success, 503 or a cut connection");

      for (AgentSwarm.Agent agent : swarm.agents()) {
        assertEquals(java.util.Set.of(agent.expected), agent.seen, agent.hostId + " was asked only for its instance");
        assertEquals(1, agent.mostInstances.get(), agent.hostId + " was never asked for two instances");
        assertTrue(!agent.vanished, agent.hostId + ": its instance never left its desired state");
        assertTrue(agent.reportedThrough.contains(survivor.name()), agent.hostId + " reported through the survivor");
      }
      assertEquals(AGENTS, running(reservations), "every reservation runs");
      assertEquals(AGENTS, instances(reservations, "desired AND state = 'running'"), "one running instance each");
    } finally {
      setup.shutdownNow();
    }
  }

  private static void enrol(AgentSwarm swarm, GatewayProcess node, RemoteApi operator, String siteId, int index) {
    JsonObject host = operator.expect(201, "POST", "/api/v1/operator/hosts", new JsonObject()
        .put("name", "gpu-" + UUID.randomUUID().toString().substring(0, 8)).put("site_id", siteId)
        .put("public_address", "203.0.113.7"));
    JsonObject enrolled = new RemoteApi(node, host.getString("enrollment_token")).expect(201, "POST",
        "/api/v1/agent/enroll", new JsonObject().put("agent_version", "0.1.0")
            .put("facts", FakeAgent.facts("NVIDIA H100 80GB HBM3", 1)));
    String hostId = enrolled.getString("host_id");
    JsonObject beat = new RemoteApi(node, enrolled.getString("credential")).expect(200, "POST",
        "/api/v1/agent/heartbeat", new JsonObject().put("agent_version", "0.1.0")
            .put("sent_at", java.time.Instant.now().toString()).put("telemetry", new JsonObject().put("disk_free_gb", 3100.5).put("load_1m", 0.42)));
    JsonObject active = operator.expect(200, "POST", "/api/v1/operator/hosts/" + hostId + "/activate",
        new JsonObject().put("price_per_gpu_hour", new JsonObject().put("amount", 250).put("currency", "usd")));
    AgentSwarm.Agent agent = swarm.add(hostId, enrolled.getString("credential"), 0, index < AGENTS / 2,
        Duration.ofSeconds(beat.getLong("heartbeat_interval_seconds")));
    agent.offerId = active.getJsonArray("offers").getString(0);
  }

  /** A reservation of the offer's one GPU from now, paid through the sandbox's hosted checkout. */
  private static String paidReservation(GatewayProcess node, RemoteApi renter, String offerId, String paymentKey) {
    JsonObject reservation = renter.expect(201, "POST", "/api/v1/reservations",
        ApiClient.reservationRequest(offerId, 1, null, 2, "checkout"));
    String session = ApiClient.sessionOf(reservation.getJsonObject("payment").getString("checkout_url"));
    try {
      HttpResponse<String> paid = HTTP.send(HttpRequest.newBuilder(URI.create(node.url(
              "/sandbox/stripe/_test/checkout/sessions/" + session + "/complete")))
          .header("Authorization", "Bearer " + paymentKey)
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString("card=4242424242424242")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, paid.statusCode(), paid.body());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return reservation.getString("id");
  }

  /** Runs {@code task} for 0..count-1 on {@code pool}; the first failure fails the test. */
  private static void inParallel(ExecutorService pool, int count, Consumer<Integer> task) {
    CompletableFuture.allOf(java.util.stream.IntStream.range(0, count)
        .mapToObj(i -> CompletableFuture.runAsync(() -> task.accept(i), pool)).toArray(CompletableFuture[]::new)).join();
  }

  private static long running(List<String> reservations) {
    return countOf("SELECT count(*) FROM reservations WHERE status = 'running' AND id = ANY(?)", reservations);
  }

  private static long instances(List<String> reservations, String condition) {
    return countOf("SELECT count(*) FROM instances WHERE " + condition + " AND reservation_id = ANY(?)", reservations);
  }

  private static long countOf(String query, List<String> ids) {
    try (Connection connection = cluster.connection(); PreparedStatement statement = connection.prepareStatement(query)) {
      Array array = connection.createArrayOf("text", ids.toArray());
      statement.setArray(1, array);
      try (ResultSet row = statement.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(query, e);
    }
  }
}
