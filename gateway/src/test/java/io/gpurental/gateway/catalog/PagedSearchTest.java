package io.gpurental.gateway.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The search paged in SQL (sort price, vram, price_per_vram_gb: {@link OfferPages}) lists the same
 * offers with the same figures, in the same order, as the whole search sorted in Java (still what
 * an offset cursor reads), page after page, over the benchmark's fleet with history: hosts in
 * maintenance and offline, planned maintenance in the window, degraded GPUs, offers with other GPU
 * counts, and precomputed rows that are missing or no longer hold.
 */
@GatewayTest
class PagedSearchTest {
  private static final Instant HOUR = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(1, ChronoUnit.HOURS);

  @Test
  void pagesInSqlListWhatTheWholeSearchLists(TestGateway node) throws IOException {
    BenchFleet.seedWithStaleFigures(node);

    String soon = "start=" + HOUR;
    String tomorrow = "start=" + HOUR.plus(1, ChronoUnit.DAYS) + "&hours=24";
    String overMaintenance = "start=" + HOUR.plus(1, ChronoUnit.DAYS) + "&hours=72"; // every tenth host's window
    List<String> searches = List.of(soon, soon + "&include_unavailable=true", tomorrow,
        tomorrow + "&gpu_model=L40S", tomorrow + "&region=us-east&max_price_per_gpu_hour=300",
        tomorrow + "&min_gpus=4", tomorrow + "&min_gpus=2&max_gpus=4&include_unavailable=true",
        tomorrow + "&min_vram_gb=80&interconnect=NVLink", tomorrow + "&site=bench-site-3",
        overMaintenance, overMaintenance + "&include_unavailable=true&min_gpus=8");
    int multiPage = 0;
    for (String sort : List.of("price", "vram", "price_per_vram_gb")) {
      for (String search : searches) {
        String query = search + "&sort=" + sort + "&limit=7";
        List<List<JsonObject>> paged = walk(node, query, null);
        List<List<JsonObject>> whole = walk(node, query, Base64.getUrlEncoder().withoutPadding()
            .encodeToString("o:0".getBytes(StandardCharsets.UTF_8)));
        assertEquals(comparable(whole), comparable(paged), query);
        assertEquals(whole.size(), paged.size(), "as many pages: " + query);
        multiPage += paged.size() > 2 ? 1 : 0;
      }
    }
    assertTrue(multiPage > 10, "most searches take several pages: " + multiPage);
    // the fallback offers are listed, at the views' figures, not the rows' planted ones
    JsonArray listed = json(node, "/api/v1/offers?" + tomorrow + "&limit=100&include_unavailable=true")
        .getJsonArray("data");
    List<JsonObject> fallback = listed.stream().map(JsonObject.class::cast)
        .filter(offer -> BenchFleet.FALLBACK.contains(offer.getString("id"))).toList();
    assertEquals(BenchFleet.FALLBACK.size(), fallback.size(), "every offer without a row that holds is listed");
    fallback.forEach(offer -> assertTrue(offer.getJsonObject("price_per_gpu_hour").getLong("amount") > 1, offer.encode()));
  }

  @Test
  void aCursorContinuesOnlyTheSortThatMadeIt(TestGateway node) {
    String next = json(node, "/api/v1/offers?limit=1&include_unavailable=true").getString("next_cursor");
    assertTrue(new String(Base64.getUrlDecoder().decode(next), StandardCharsets.UTF_8).startsWith("k:price:"));
    assertEquals(400, node.get("/api/v1/offers?sort=vram&cursor=" + next).statusCode());
    assertEquals(400, node.get("/api/v1/offers?sort=availability&cursor=" + next).statusCode());
    String forged = Base64.getUrlEncoder().encodeToString("k:price:x:1:off".getBytes(StandardCharsets.UTF_8));
    assertEquals(400, node.get("/api/v1/offers?cursor=" + forged).statusCode());
    assertEquals(200, node.get("/api/v1/offers?cursor=" + next).statusCode());
  }

  /** Every page of the search from {@code cursor} on (null: the first page). */
  private static List<List<JsonObject>> walk(TestGateway node, String query, String cursor) {
    List<List<JsonObject>> pages = new ArrayList<>();
    String next = cursor;
    boolean first = true;
    while (first || next != null) {
      JsonObject page = json(node, "/api/v1/offers?" + query
          + (next == null ? "" : "&cursor=" + URLEncoder.encode(next, StandardCharsets.UTF_8)));
      pages.add(page.getJsonArray("data").stream().map(JsonObject.class::cast).toList());
      next = page.getString("next_cursor");
      first = false;
      assertTrue(pages.size() < 50, "the walk ends: " + query);
    }
    assertFalse(pages.isEmpty());
    return pages;
  }

  /** The offers as shown, but the uptime of those read from the views (it moves with the clock). */
  private static List<String> comparable(List<List<JsonObject>> pages) {
    return pages.stream().flatMap(List::stream).map(offer -> {
      JsonObject copy = offer.copy();
      if (BenchFleet.FALLBACK.contains(copy.getString("id"))) {
        copy.fieldNames().removeIf(name -> name.startsWith("uptime"));
      }
      return copy.encode();
    }).toList();
  }

  private static JsonObject json(TestGateway node, String path) {
    HttpResponse<String> response = node.get(path);
    assertEquals(200, response.statusCode(), path + ": " + response.body());
    return new JsonObject(response.body());
  }
}
