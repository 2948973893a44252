package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * p50/p95 time-to-ready (running − due, 30 days) on a fixed set of instance timings, per offer and
 * fleet-wide, against figures computed by hand with linear interpolation between closest ranks:
 * p = v[k] + f · (v[k+1] − v[k]) where k + f = q · (n − 1).
 */
@GatewayTest
class TimeToReadyTest {
  @Test
  void percentilesMatchTheHandComputedFigures(TestGateway node, @SignedIn("operator") ApiClient operator) {
    FakeAgent first = AgentInstancesTest.activeHost(node, operator);
    FakeAgent second = AgentInstancesTest.activeHost(node, operator);
    String firstOffer = ReadyGuaranteeTest.offerOf(operator, first);
    String secondOffer = ReadyGuaranteeTest.offerOf(operator, second);
    assertEquals(null, operator.json("/api/v1/offers/" + firstOffer).getValue("time_to_ready"), "no data yet");
    assertEquals(null, new JsonObject(node.get("/api/v1/catalog/summary").body()).getValue("time_to_ready"));

    // first host: 10, 20, 30, 40, 100 s; not counted: one older than 30 days, one never due (no launch time)
    for (int seconds : new int[] {10, 20, 30, 40, 100}) {
      instance(node, first.hostId(), "now() - interval '1 day'", seconds);
    }
    instance(node, first.hostId(), "now() - interval '31 days'", 5000);
    node.sql("INSERT INTO instances (reservation_id, host_id, gpu_indexes, ssh_public_key, unix_user, ends_at,"
        + " running_at) VALUES ('rsv_ttr_nodue', '" + first.hostId() + "', '{0}', 'k', 'u', now(), now())");
    // second host: 60 s
    instance(node, second.hostId(), "now() - interval '2 hours'", 60);

    // n = 5: p50 at rank 2 = 30; p95 at rank 3.8 = 40 + 0.8 · 60 = 88
    assertEquals(figures(30, 88, 5), operator.json("/api/v1/offers/" + firstOffer).getJsonObject("time_to_ready"));
    assertEquals(figures(60, 60, 1), operator.json("/api/v1/offers/" + secondOffer).getJsonObject("time_to_ready"));
    JsonObject listed = operator.json("/api/v1/offers?limit=100").getJsonArray("data").stream()
        .map(JsonObject.class::cast).filter(o -> firstOffer.equals(o.getString("id"))).findFirst().orElseThrow();
    assertEquals(figures(30, 88, 5), listed.getJsonObject("time_to_ready"), "the catalog list carries it too");
    // fleet: 10, 20, 30, 40, 60, 100 (n = 6): p50 at rank 2.5 = 35; p95 at rank 4.75 = 60 + 0.75 · 40 = 90
    assertEquals(figures(35, 90, 6), new JsonObject(node.get("/api/v1/catalog/summary").body())
        .getJsonObject("time_to_ready"));
  }

  private static int counter;

  private static void instance(TestGateway node, String hostId, String runningAt, int seconds) {
    node.sql("INSERT INTO instances (reservation_id, host_id, gpu_indexes, ssh_public_key, unix_user, ends_at, due_at,"
        + " running_at) VALUES ('rsv_ttr_" + (++counter) + "', '" + hostId + "', '{0}', 'k', 'u', now(), "
        + runningAt + " - interval '" + seconds + " seconds', " + runningAt + ")");
  }

  private static JsonObject figures(int p50, int p95, int samples) {
    return new JsonObject().put("p50_seconds", p50).put("p95_seconds", p95).put("samples", samples);
  }
}
