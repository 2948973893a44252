package io.gpurental.gateway.catalog;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * A search shows each offer's price and uptime from its precomputed row (V24 offer_figures), and
 * the rows follow the events that change them: a price set shows in the next search, before and
 * after its row is refreshed; a host's maintenance change recomputes its row.
 */
@GatewayTest(settings = TestGateway.LONG_SEARCH_CACHE)
class OfferFiguresTest {
  private static final String HOST = "host_fra_l40s_01";
  private static final String OFFER = "off_fra_l40s_01";
  private static final Instant START = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);

  @Test
  void searchesReadThePrecomputedRowsAndTheRowsFollowTheEvents(TestGateway node,
      @SignedIn("operator") ApiClient operator) {
    TestGateway.await(node.gateway().jobs().runNow(OfferFigures.REFRESH_JOB));
    assertEquals(6L, count(node, "SELECT count(*) FROM offer_figures"), "a row per open demo offer");
    assertEquals(0L, count(node, "SELECT count(*) FROM offer_prices_view v JOIN offer_figures f USING (offer_id)"
        + " WHERE f.amount_per_gpu_hour IS DISTINCT FROM v.amount_per_gpu_hour"), "the operator's price rule");
    assertEquals(0L, count(node, "SELECT count(*) FROM host_uptime_view v JOIN offer_figures f USING (host_id)"
        + " WHERE f.uptime_30d IS DISTINCT FROM v.uptime_30d"), "the fleet's uptime rule");

    // the search reads the row: a figure written into it (and nowhere else) is what it shows
    node.sql("UPDATE offer_figures SET uptime_30d = 0.5 WHERE offer_id = '" + OFFER + "'");
    dropCachedSearches(node);
    assertEquals(0.5, searched(node).getDouble("uptime_30d"));
    // one offer asked for by id (offer page, quote) reads the views
    assertNotEquals(0.5, new JsonObject(node.get("/api/v1/offers/" + OFFER).body()).getDouble("uptime_30d"));

    // a maintenance window announced by the fleet recomputes the host's row
    JsonObject window = new JsonObject().put("starts_at", START.plus(7, ChronoUnit.DAYS).toString())
        .put("ends_at", START.plus(7, ChronoUnit.DAYS).plus(2, ChronoUnit.HOURS).toString()).put("drain", false)
        .put("reason", "figures test");
    HttpResponse<String> saved = operator.post("/api/v1/operator/hosts/" + HOST + "/maintenance", window);
    assertEquals(201, saved.statusCode(), saved.body());
    eventually("the host's row is recomputed", () -> count(node,
        "SELECT count(*) FROM offer_figures WHERE offer_id = '" + OFFER + "' AND uptime_30d IS DISTINCT FROM 0.5"),
        rows -> rows == 1L);
    dropCachedSearches(node);
    assertNotEquals(0.5, searched(node).getDouble("uptime_30d"));

    // a new price shows in the very next search (a newer price row makes the old one not hold),
    // and its row is refreshed to it
    HttpResponse<String> set = operator.put("/api/v1/operator/offers/" + OFFER + "/price",
        new JsonObject().put("amount", 123).put("currency", "usd"));
    assertEquals(200, set.statusCode(), set.body());
    dropCachedSearches(node); // the cache's own event is not what this test is about
    assertEquals(123L, searched(node).getJsonObject("price_per_gpu_hour").getLong("amount"));
    eventually("the offer's row holds the new price", () -> count(node,
        "SELECT count(*) FROM offer_figures WHERE offer_id = '" + OFFER + "' AND amount_per_gpu_hour = 123"
            + " AND prices_seen = (SELECT max(id) FROM prices)"), rows -> rows == 1L);
    assertEquals(123L, searched(node).getJsonObject("price_per_gpu_hour").getLong("amount"));

    // a price row written behind the catalog's back (no event, no refresh): the row no longer holds,
    // so the search reads the view
    node.sql("INSERT INTO prices (offer_id, amount_per_gpu_hour, currency, effective_from, set_by)"
        + " VALUES ('" + OFFER + "', 77, 'usd', now(), 'test')");
    dropCachedSearches(node);
    assertEquals(77L, searched(node).getJsonObject("price_per_gpu_hour").getLong("amount"));
  }

  private static JsonObject searched(TestGateway node) {
    HttpResponse<String> response = node.get("/api/v1/offers?start=" + START);
    assertEquals(200, response.statusCode(), response.body());
    return new JsonObject(response.body()).getJsonArray("data").stream().map(JsonObject.class::cast)
        .filter(offer -> OFFER.equals(offer.getString("id"))).findFirst().orElseThrow();
  }

  private static void dropCachedSearches(TestGateway node) {
    TestGateway.await(node.gateway().vertx().eventBus().request(CatalogChanges.ADDRESS, "test"));
  }

  private static long count(TestGateway node, String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }
}
