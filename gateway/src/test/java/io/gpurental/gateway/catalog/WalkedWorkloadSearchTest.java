package io.gpurental.gateway.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
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
 * A workload search by price walked in order ({@code w:<offset>} cursors: offers ranked from their
 * precomputed figures, GPUs counted only until the page is full) lists the same offers, fits,
 * prices and note, in the same order and pages, as the whole search sorted in Java (what an
 * {@code o:<offset>} cursor reads), over the benchmark's fleet with history and precomputed rows
 * that are missing or no longer hold.
 */
@GatewayTest
class WalkedWorkloadSearchTest {
  private static final Instant HOUR = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(1, ChronoUnit.HOURS);

  @Test
  void walkedPagesListWhatTheWholeSearchLists(TestGateway node) throws IOException {
    BenchFleet.seedWithStaleFigures(node);

    String soon = "start=" + HOUR;
    String tomorrow = "start=" + HOUR.plus(1, ChronoUnit.DAYS) + "&hours=24";
    String overMaintenance = "start=" + HOUR.plus(1, ChronoUnit.DAYS) + "&hours=72";
    List<String> workloads = List.of("workload=llm-inference", "workload=llm-inference&params_b=250",
        "workload=llm-inference&model=llama-3.1-70b&context=8192&sequences=8",
        "workload=image-generation&model=flux.1-dev&batch=16", "workload=llm-finetune&model=llama-3.1-70b",
        "workload=llm-inference&params_b=2000");
    List<String> searches = List.of(soon, tomorrow, tomorrow + "&include_unavailable=true",
        tomorrow + "&region=us-east&max_price_per_gpu_hour=300", tomorrow + "&min_gpus=2&max_gpus=4",
        tomorrow + "&min_vram_gb=48&interconnect=NVLink", overMaintenance);
    int multiPage = 0;
    for (String workload : workloads) {
      for (String search : searches) {
        String query = workload + "&" + search + "&limit=4";
        List<JsonObject> walked = walk(node, query, null);
        List<JsonObject> whole = walk(node, query, Base64.getUrlEncoder().withoutPadding()
            .encodeToString("o:0".getBytes(StandardCharsets.UTF_8)));
        assertEquals(comparable(whole), comparable(walked), query);
        multiPage += walked.size() > 2 ? 1 : 0;
      }
    }
    assertTrue(multiPage > 10, "most searches take several pages: " + multiPage);
  }

  @Test
  void aStepCursorContinuesOnlyAWorkloadSearchByPrice(TestGateway node) {
    String next = json(node, "/api/v1/offers?workload=llm-inference&limit=1&include_unavailable=true")
        .getString("next_cursor");
    assertTrue(new String(Base64.getUrlDecoder().decode(next), StandardCharsets.UTF_8).startsWith("w:"));
    assertEquals(400, node.get("/api/v1/offers?cursor=" + next).statusCode());
    assertEquals(400, node.get("/api/v1/offers?workload=llm-inference&sort=vram&cursor=" + next).statusCode());
    assertEquals(200, node.get("/api/v1/offers?workload=llm-inference&include_unavailable=true&cursor=" + next)
        .statusCode());
  }

  /** Every page of the search from {@code cursor} on (null: the first page), each with its workload note. */
  private static List<JsonObject> walk(TestGateway node, String query, String cursor) {
    List<JsonObject> pages = new ArrayList<>();
    String next = cursor;
    boolean first = true;
    while (first || next != null) {
      JsonObject page = json(node, "/api/v1/offers?" + query
          + (next == null ? "" : "&cursor=" + URLEncoder.encode(next, StandardCharsets.UTF_8)));
      next = page.getString("next_cursor");
      page.remove("next_cursor");
      pages.add(page);
      first = false;
      assertTrue(pages.size() < 60, "the walk ends: " + query);
    }
    assertFalse(pages.isEmpty());
    return pages;
  }

  /** The pages as shown, but the uptime of the offers read from the views (it moves with the clock). */
  private static List<String> comparable(List<JsonObject> pages) {
    return pages.stream().map(page -> {
      JsonObject copy = page.copy();
      copy.getJsonArray("data").forEach(o -> {
        JsonObject offer = (JsonObject) o;
        if (BenchFleet.FALLBACK.contains(offer.getString("id"))) {
          offer.fieldNames().removeIf(name -> name.startsWith("uptime"));
        }
      });
      return copy.encode();
    }).toList();
  }

  private static JsonObject json(TestGateway node, String path) {
    HttpResponse<String> response = node.get(path);
    assertEquals(200, response.statusCode(), path + ": " + response.body());
    return new JsonObject(response.body());
  }
}
