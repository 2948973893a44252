package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Heartbeats stop: the host goes offline and its offer leaves the catalog on both nodes of a
 * cluster (each drops its cached searches at once, well within the cache's own lifetime); the
 * first heartbeat brings both back.
 */
class HostOfflineClusterTest {

  @Test
  void aSilentHostLeavesTheCatalogOnEveryNodeAndComesBackWithItsHeartbeat() {
    List<Map<String, String>> members = TestGateway.twoNodeCluster();
    members.forEach(settings -> {
      settings.put("GATEWAY_FLEET_HEARTBEAT_INTERVAL_SECONDS", "1");
      settings.put("GATEWAY_FLEET_OFFLINE_AFTER_MISSED", "2");
      TestGateway.withLongSearchCache(settings);
    });
    try (TestGateway a = TestGateway.start(members.get(0)); TestGateway b = TestGateway.start(members.get(1))) {
      ApiClient operator = ApiClient.signIn(a, "operator");
      FakeAgent agent = AgentInstancesTest.activeHost(a, operator);
      String offerId = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);

      eventually("listed on both nodes while heartbeats come", () -> {
        agent.heartbeat();
        return listed(a, offerId) && listed(b, offerId);
      }, Boolean::booleanValue);

      eventually("offline once heartbeats stop", () -> status(a, agent.hostId()), "offline"::equals);
      eventually("gone from node a", TestGateway.AT_ONCE, () -> listed(a, offerId), listed -> !listed);
      eventually("gone from node b", TestGateway.AT_ONCE, () -> listed(b, offerId), listed -> !listed);

      assertEquals(200, agent.on(b).heartbeat().statusCode());
      assertEquals("active", status(a, agent.hostId()), "the first heartbeat brings it back");
      eventually("back on node a", TestGateway.AT_ONCE, () -> listed(a, offerId), Boolean::booleanValue);
      eventually("back on node b", TestGateway.AT_ONCE, () -> listed(b, offerId), Boolean::booleanValue);
    }
  }

  private static boolean listed(TestGateway node, String offerId) {
    JsonObject page = new JsonObject(node.get("/api/v1/offers?limit=100").body());
    return page.getJsonArray("data").stream().anyMatch(o -> offerId.equals(((JsonObject) o).getString("id")));
  }

  private static String status(TestGateway node, String hostId) {
    return node.sql("SELECT status FROM hosts WHERE id = '" + hostId + "'").iterator().next().getString(0);
  }
}
