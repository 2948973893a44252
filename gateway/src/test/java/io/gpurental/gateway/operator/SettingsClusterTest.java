package io.gpurental.gateway.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each node caches the terms of sale (for a minute at most); a change on one node drops every
 * node's cache through the clustered event bus, so the other node quotes with it within moments.
 */
class SettingsClusterTest {
  @Test
  void aChangeOnOneNodeReachesTheOtherNodesQuotesAtOnce() {
    List<Map<String, String>> cluster = TestGateway.twoNodeCluster();
    try (TestGateway a = TestGateway.start(cluster.get(0));
        TestGateway b = TestGateway.start(cluster.get(1))) {
      ApiClient operator = ApiClient.signIn(a, "operator");
      ApiClient renterOnB = ApiClient.signIn(b, "erin");
      assertEquals(List.of(79L, 2L), amounts(renterOnB.quote("off_fra_l40s_01", 1, null, 1)), "B caches 3 %");

      HttpResponse<String> put = operator.put("/api/v1/operator/settings", new JsonObject()
          .put("duration_discounts", new JsonArray()).put("platform_fee_bps", 1000).put("tax_bps", 0)
          .put("cancellation_fee_bps", 1000));
      assertEquals(200, put.statusCode(), put.body());

      // well inside the cache's one-minute lifetime (counted from the first quote): only the event can drop it
      Eventually.eventually("node B quotes with the new fee", Duration.ofSeconds(25),
          () -> amounts(renterOnB.quote("off_fra_l40s_01", 1, null, 1)), amounts -> amounts.equals(List.of(79L, 8L)));
    }
  }

  private static List<Long> amounts(JsonObject quote) {
    return quote.getJsonArray("items").stream()
        .map(item -> ((JsonObject) item).getJsonObject("amount").getLong("amount")).toList();
  }
}
