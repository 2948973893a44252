package io.gpurental.gateway.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.FakeAgent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Simulated host agents speak the real protocol (enrol, heartbeat, desired state, instance
 * reports) to one node of two; each host gets a paid reservation, half the agents report their
 * instance running, then that node is killed with SIGKILL. The agents go on through the other
 * node: each host is still asked for exactly its one instance, and every reservation runs.
 */
class AgentsUnderFaultsTest {
  private static final int AGENTS = 20;
  /** The built-in Stripe sandbox's key (config.StripeSettings), with which its hosted checkout is completed. */
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
    List<RemoteApi> agents = new ArrayList<>();
    List<String> reservations = new ArrayList<>();
    long started = System.nanoTime();
    for (int i = 0; i < AGENTS; i++) {
      RemoteApi agent = enrolledAgent(victim, operator);
      agents.add(agent);
      reservations.add(paidReservation(survivor, operator, renter, agent));
    }
    for (int i = 0; i < AGENTS; i++) {
      String user = awaitOnlyInstance(agents.get(i), reservations.get(i)).getString("user");
      if (i < AGENTS / 2) {
        agents.get(i).expect(204, "PUT", "/api/v1/agent/instances/" + reservations.get(i), FakeAgent.running(user, 22000 + i));
      }
    }
    victim.kill();
    long killed = System.nanoTime();
    for (int i = 0; i < AGENTS; i++) {
      RemoteApi agent = agents.get(i);
      agent.use(survivor);
      agent.expect(200, "POST", "/api/v1/agent/heartbeat", heartbeat());
      String user = awaitOnlyInstance(agent, reservations.get(i)).getString("user");
      agent.expect(204, "PUT", "/api/v1/agent/instances/" + reservations.get(i), FakeAgent.running(user, 22000 + i));
    }
    for (String id : reservations) {
      Eventually.eventually(id + " running", () -> renter.expect(200, "GET", "/api/v1/reservations/" + id, null)
          .getString("status"), "running"::equals);
    }
    long instances = cluster.count("SELECT count(*) FROM reservations WHERE status = 'running'");
    System.out.printf("Agents under faults: %d agents on the killed node; set up in %d ms; after the kill all"
        + " reported through the survivor in %d ms; %d reservations running, each host asked for 1 instance%n",
        AGENTS, (killed - started) / 1_000_000, (System.nanoTime() - killed) / 1_000_000, instances);
    assertEquals(AGENTS, instances, "every reservation runs, none twice");
  }

  private static RemoteApi enrolledAgent(GatewayProcess node, RemoteApi operator) {
    JsonObject site = operator.expect(201, "POST", "/api/v1/operator/sites", new JsonObject()
        .put("name", "Site " + UUID.randomUUID()).put("region", "eu-test").put("country", "de"));
    JsonObject host = operator.expect(201, "POST", "/api/v1/operator/hosts", new JsonObject()
        .put("name", "gpu-" + UUID.randomUUID().toString().substring(0, 8)).put("site_id", site.getString("id"))
        .put("public_address", "203.0.113.7"));
    JsonObject enrolled = new RemoteApi(node, host.getString("enrollment_token")).expect(201, "POST",
        "/api/v1/agent/enroll", new JsonObject().put("agent_version", "0.1.0")
            .put("facts", FakeAgent.facts("NVIDIA H100 80GB HBM3", 1)));
    RemoteApi agent = new RemoteApi(node, enrolled.getString("credential"));
    agent.expect(200, "POST", "/api/v1/agent/heartbeat", heartbeat());
    operator.expect(200, "POST", "/api/v1/operator/hosts/" + enrolled.getString("host_id") + "/activate",
        new JsonObject().put("price_per_gpu_hour", new JsonObject().put("amount", 250).put("currency", "usd")));
    agent.hostId = enrolled.getString("host_id");
    return agent;
  }

  /** A reservation of the agent's one GPU from now, paid through the sandbox's hosted checkout. */
  private static String paidReservation(GatewayProcess node, RemoteApi operator, RemoteApi renter, RemoteApi agent)
      throws Exception {
    String offerId = operator.expect(200, "GET", "/api/v1/operator/hosts/" + agent.hostId, null)
        .getJsonArray("offers").getString(0);
    JsonObject reservation = renter.expect(201, "POST", "/api/v1/reservations",
        ApiClient.reservationRequest(offerId, 1, null, 2, "checkout"));
    String session = ApiClient.sessionOf(reservation.getJsonObject("payment").getString("checkout_url"));
    HttpResponse<String> paid = HTTP.send(HttpRequest.newBuilder(URI.create(node.url(
            "/sandbox/stripe/_test/checkout/sessions/" + session + "/complete")))
        .header("Authorization", "Bearer " + cluster.faultControlKey())
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("card=4242424242424242")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, paid.statusCode(), paid.body());
    return reservation.getString("id");
  }

  /** Waits until the agent's desired state lists the reservation's instance, and only it. */
  private static JsonObject awaitOnlyInstance(RemoteApi agent, String reservationId) {
    JsonArray instances = Eventually.eventually(agent.hostId + " asked for " + reservationId, Duration.ofSeconds(60),
        () -> agent.expect(200, "GET", "/api/v1/agent/desired-state?wait_seconds=0", null).getJsonArray("instances"),
        list -> !list.isEmpty());
    assertEquals(1, instances.size(), "exactly one instance on " + agent.hostId + ": " + instances);
    assertEquals(reservationId, instances.getJsonObject(0).getString("id"));
    return instances.getJsonObject(0);
  }

  private static JsonObject heartbeat() {
    return new JsonObject().put("agent_version", "0.1.0").put("sent_at", java.time.Instant.now().toString())
        .put("telemetry", new JsonObject().put("disk_free_gb", 3100.5).put("load_1m", 0.42));
  }
}
