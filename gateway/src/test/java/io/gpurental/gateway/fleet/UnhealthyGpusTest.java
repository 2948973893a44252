package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An unhealthy GPU is out of the bookable capacity for reservations too, not only in the
 * listing: a new reservation gets only healthy GPUs, and more GPUs than are healthy cannot be
 * booked. The series route is for operators only.
 */
@GatewayTest
class UnhealthyGpusTest {
  @Test
  void aReservationGetsOnlyHealthyGpus(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("dave") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String offerId = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
    JsonObject faulty = FakeAgent.telemetry(3000, 40, 40, 40, 40);
    faulty.getJsonArray("gpus").getJsonObject(0).put("ecc_uncorrected", 1);
    for (int i = 0; i < 3; i++) {
      faulty.getJsonArray("gpus").getJsonObject(1).put("temperature_c", 95);
      assertEquals(200, agent.heartbeat(faulty).statusCode());
    }
    assertEquals("faulty", HealthRulesClusterTest.health(node, agent.hostId(), 0));
    assertEquals("degraded", HealthRulesClusterTest.health(node, agent.hostId(), 1));
    assertEquals(Optional.of(2), HealthRulesClusterTest.available(node, offerId));

    renter.saveCard("4242424242424242");
    HttpResponse<String> four = renter.post("/api/v1/reservations",
        ApiClient.reservationRequest(offerId, 4, null, 2, "saved_card"));
    assertTrue(four.statusCode() == 409 || four.statusCode() == 422, four.body());
    String id = renter.reserve(offerId, 2, null, 2, "saved_card").getString("id");
    List<Integer> gpus = new ArrayList<>();
    node.sql("SELECT g.idx FROM reservation_gpus rg JOIN gpus g ON g.id = rg.gpu_id WHERE rg.reservation_id = '" + id
        + "' ORDER BY g.idx").forEach(row -> gpus.add(row.getInteger(0)));
    assertEquals(List.of(2, 3), gpus, "the faulty GPU 0 and the degraded GPU 1 are not booked");

    assertEquals(403, renter.get("/api/v1/operator/hosts/" + agent.hostId() + "/telemetry").statusCode());
  }
}
