package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The node that started an instance is gone (restarted): the agent's report still reaches the
 * reservation, through the instance events reservations registered with the fleet at boot.
 */
class AgentReportsAfterRestartTest {
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
