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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Each health rule over the real agent protocol on a two-node cluster: telemetry in, the GPU's
 * or host's status changes, the bookable capacity shrinks on both nodes at once (well within
 * the catalog cache's own lifetime), and it comes back only after the clean period.
 */
class HealthRulesClusterTest {
  private static final Duration CLEAN = Duration.ofSeconds(4);

  @Test
  void eachRuleTakesCapacityOutOnBothNodesAndItReturnsAfterTheCleanPeriod() {
    List<Map<String, String>> members = TestGateway.twoNodeCluster();
    members.forEach(settings -> {
      settings.put("GATEWAY_FLEET_HEALTH_GPU_TEMPERATURE_LIMIT_C", "85");
      settings.put("GATEWAY_FLEET_HEALTH_GPU_TEMPERATURE_SAMPLES", "3");
      settings.put("GATEWAY_FLEET_HEALTH_DISK_FREE_MIN_GB", "50");
      settings.put("GATEWAY_FLEET_HEALTH_CLEAN_PERIOD_SECONDS", String.valueOf(CLEAN.toSeconds()));
      // the test sends heartbeats as fast as it can; a real agent sends one per interval
      settings.put("GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "100000");
      TestGateway.withLongSearchCache(settings);
    });
    try (TestGateway a = TestGateway.start(members.get(0)); TestGateway b = TestGateway.start(members.get(1))) {
      ApiClient operator = ApiClient.signIn(a, "operator");
      FakeAgent agent = AgentInstancesTest.activeHost(a, operator);
      FakeAgent onB = agent.on(b);
      String offerId = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
      send(agent, FakeAgent.telemetry(3000, 40, 40, 40, 40));
      eventually("4 GPUs bookable on both nodes", () -> available(a, offerId).equals(Optional.of(4))
          && available(b, offerId).equals(Optional.of(4)), Boolean::booleanValue);

      // too hot: only the third sample in a row degrades GPU 2
      send(agent, FakeAgent.telemetry(3000, 40, 40, 90, 40));
      send(onB, FakeAgent.telemetry(3000, 40, 40, 91, 40));
      assertEquals("healthy", health(a, agent.hostId(), 2), "two hot samples are not yet a violation");
      Supplier<String> gpu2 = () -> health(a, agent.hostId(), 2);
      long hot = violate(agent, FakeAgent.telemetry(3000, 40, 40, 92, 40), gpu2, "degraded");
      JsonObject gpu = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("gpus").getJsonObject(2);
      assertEquals("degraded", gpu.getJsonObject("health").getString("status"));
      assertTrue(gpu.getJsonObject("health").getString("reason").contains("92 °C above the limit of 85 °C"),
          gpu.encode());
      capacity(a, b, offerId, Optional.of(3));
      recovers(agent, hot, gpu2, "degraded", "healthy");
      capacity(a, b, offerId, Optional.of(4));

      // uncorrected ECC errors: GPU 1 is faulty at once
      JsonObject ecc = FakeAgent.telemetry(3000, 40, 40, 40, 40);
      ecc.getJsonArray("gpus").getJsonObject(1).put("ecc_uncorrected", 2);
      Supplier<String> gpu1 = () -> health(a, agent.hostId(), 1);
      long errors = violate(onB, ecc, gpu1, "faulty");
      capacity(a, b, offerId, Optional.of(3));
      recovers(agent, errors, gpu1, "faulty", "healthy");
      capacity(a, b, offerId, Optional.of(4));

      // a failed row remapping: faulty too
      JsonObject remap = FakeAgent.telemetry(3000, 40, 40, 40, 40);
      remap.getJsonArray("gpus").getJsonObject(3).put("remapped_rows_failure", true);
      Supplier<String> gpu3 = () -> health(a, agent.hostId(), 3);
      long remapped = violate(agent, remap, gpu3, "faulty");
      capacity(a, b, offerId, Optional.of(3));
      recovers(agent, remapped, gpu3, "faulty", "healthy");

      // too little disk: the host is degraded and its offer leaves the catalog
      Supplier<String> host = () -> status(a, agent.hostId());
      long full = violate(agent, FakeAgent.telemetry(12.5, 40, 40, 40, 40), host, "degraded");
      assertEquals("disk free 12.5 GB below the limit of 50 GB",
          operator.json("/api/v1/operator/hosts/" + agent.hostId()).getString("health_reason"));
      capacity(a, b, offerId, Optional.empty());
      recovers(agent, full, host, "degraded", "active");
      capacity(a, b, offerId, Optional.of(4));
    }
  }

  /**
   * Clean samples keep it in {@code bad} until the clean period has passed since the last
   * violation, then it is {@code good}.
   */
  private static void recovers(FakeAgent agent, long violated, Supplier<String> state,
      String bad, String good) {
    eventually("back to " + good + " after the clean period", Duration.ofSeconds(30), () -> {
      send(agent, FakeAgent.telemetry(3000, 40, 40, 40, 40));
      return state.get();
    }, good::equals);
    assertTrue(Duration.ofNanos(System.nanoTime() - violated).compareTo(CLEAN) >= 0, "not before the clean period");
  }

  /** Sends the violating telemetry; answers when it was sent (the violation is no earlier). */
  private static long violate(FakeAgent agent, JsonObject telemetry, Supplier<String> state,
      String bad) {
    long sent = System.nanoTime();
    send(agent, telemetry);
    assertEquals(bad, state.get());
    send(agent, FakeAgent.telemetry(3000, 40, 40, 40, 40));
    if (Duration.ofNanos(System.nanoTime() - sent).compareTo(CLEAN) < 0) {
      assertEquals(bad, state.get(), "a clean sample within the clean period changes nothing");
    }
    return sent;
  }

  private static void capacity(TestGateway a, TestGateway b, String offerId, Optional<Integer> gpus) {
    eventually("node a lists " + gpus, TestGateway.AT_ONCE, () -> available(a, offerId), gpus::equals);
    eventually("node b lists " + gpus, TestGateway.AT_ONCE, () -> available(b, offerId), gpus::equals);
  }

  private static void send(FakeAgent agent, JsonObject telemetry) {
    HttpResponse<String> answer = agent.heartbeat(telemetry);
    assertEquals(200, answer.statusCode(), answer.body());
  }

  /** The offer's GPUs available now, as a renter's search lists it; empty when it is not listed. */
  static Optional<Integer> available(TestGateway node, String offerId) {
    JsonObject page = new JsonObject(node.get("/api/v1/offers?limit=100").body());
    return page.getJsonArray("data").stream().map(o -> (JsonObject) o).filter(o -> offerId.equals(o.getString("id")))
        .findFirst().map(o -> o.getInteger("gpus_available"));
  }

  static String health(TestGateway node, String hostId, int index) {
    return node.sql("SELECT health FROM fleet_gpus_view WHERE host_id = '" + hostId + "' AND idx = " + index)
        .iterator().next().getString(0);
  }

  private static String status(TestGateway node, String hostId) {
    return node.sql("SELECT status FROM fleet_hosts_view WHERE id = '" + hostId + "'").iterator().next().getString(0);
  }
}
