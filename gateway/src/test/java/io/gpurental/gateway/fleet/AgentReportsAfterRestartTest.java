package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The node that started an instance is gone (restarted): the agent's report still reaches the
 * reservation, through the instance events reservations registered with the fleet at boot. And a
 * node stopping answers its agents' long polls at once rather than holding its shutdown.
 */
class AgentReportsAfterRestartTest {
  @Test
  void aStoppingNodeAnswersItsLongPollsAtOnce() throws Exception {
    TestGateway node = TestGateway.start();
    ApiClient operator = ApiClient.signIn(node, "operator");
    FakeAgent agent = FakeAgent.enrol(node, HostEnrolmentTest.createHost(operator).getString("enrollment_token"),
        "NVIDIA H100 80GB HBM3", 1);
    long version = agent.desiredStateNow().getLong("version");
    CompletableFuture<HttpResponse<String>> poll = agent.desiredState(version, 30);
    // this agent's poll, not the demo agents' ones (always some in flight): stopping before it
    // arrived would refuse its connection rather than answer it
    eventually("the poll is waiting", () -> !poll.isDone() && pollsWaiting(node, agent.hostId()) > 0);
    long stopping = System.nanoTime();
    node.close();
    assertTrue(Duration.ofNanos(System.nanoTime() - stopping).toSeconds() < 8, "within the 10 s drain timeout");
    HttpResponse<String> answered = poll.get(5, TimeUnit.SECONDS);
    assertEquals(200, answered.statusCode(), answered.body());
  }

  /** A waiting long poll listens on its host's desired-state address (see DesiredStateWaits). */
  private static double pollsWaiting(TestGateway node, String hostId) {
    String address = "address=\"fleet.desired-state." + hostId + "\"";
    String metrics = node.getManagement("/metrics").body();
    return metrics.lines().filter(line -> line.startsWith("vertx_eventbus_handlers{") && line.contains(address))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
  }

  @Test
  void aRunningReportAfterAGatewayRestartMakesTheReservationRunning() {
    Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS", "200");
    ApiClient renter;
    FakeAgent agent;
    String id;
    String user;
    try (TestGateway before = TestGateway.start(settings)) {
      ApiClient operator = ApiClient.signIn(before, "operator");
      agent = AgentInstancesTest.activeHost(before, operator);
      renter = ApiClient.signIn(before, "dave");
      renter.saveCard("4242424242424242");
      String offerId = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
      id = renter.reserve(offerId, 1, null, 1, "saved_card").getString("id");
      renter.awaitStatus(id, "provisioning");
      user = agent.desiredStateNow().getJsonArray("instances").getJsonObject(0).getString("user");
    }
    try (TestGateway after = TestGateway.start(settings)) {
      FakeAgent same = agent.on(after);
      assertEquals(204, same.report(id, FakeAgent.running(user, 22017)).statusCode());
      JsonObject running = renter.on(after).awaitStatus(id, "running");
      assertEquals(FakeAgent.HOST_KEY_FINGERPRINT, running.getJsonObject("ssh").getString("host_key_fingerprint"));
    }
  }
}
