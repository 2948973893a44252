package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A maintenance window planned on one node makes the window unbookable on the other node at once
 * (it drops its cached searches on the fleet's event, well within the cache's own lifetime), and
 * cancelling it there makes it bookable again.
 */
class MaintenanceClusterTest {
  private static final String OFFER = "off_fra_a100_01";
  private static final Instant START = Instant.now().plus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);

  @Test
  void aWindowPlannedOnOneNodeIsSeenByTheOtherAtOnce() {
    List<Map<String, String>> members = TestGateway.twoNodeCluster();
    members.forEach(TestGateway::withLongSearchCache);
    try (TestGateway a = TestGateway.start(members.get(0)); TestGateway b = TestGateway.start(members.get(1))) {
      ApiClient operator = ApiClient.signIn(a, "operator");
      assertTrue(bookable(b), "cached on node b before the window exists");
      HttpResponse<String> saved = operator.post("/api/v1/operator/hosts/host_fra_a100_01/maintenance", new JsonObject()
          .put("starts_at", START.toString()).put("ends_at", START.plus(6, ChronoUnit.HOURS).toString())
          .put("reason", "rack move"));
      assertEquals(201, saved.statusCode(), saved.body());
      eventually("unbookable on node b", TestGateway.AT_ONCE, () -> bookable(b), bookable -> !bookable);

      String id = new JsonObject(saved.body()).getJsonObject("maintenance").getString("id");
      assertEquals(false, bookable(a), "cached on node a now: unbookable");
      assertEquals(200, operator.on(b).delete("/api/v1/operator/hosts/host_fra_a100_01/maintenance/" + id).statusCode());
      eventually("bookable again on node a", TestGateway.AT_ONCE, () -> bookable(a), Boolean::booleanValue);
    }
  }

  private static boolean bookable(TestGateway node) {
    JsonObject page = new JsonObject(node.get("/api/v1/offers?limit=100&include_unavailable=true&hours=2&start="
        + START.plus(1, ChronoUnit.HOURS)).body());
    return page.getJsonArray("data").stream().map(JsonObject.class::cast).filter(o -> OFFER.equals(o.getString("id")))
        .findFirst().orElseThrow().getBoolean("bookable");
  }
}
