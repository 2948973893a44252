package io.gpurental.gateway.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.catalog.workloads.Fit;
import io.gpurental.gateway.catalog.workloads.Workloads;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A workload search reads from SQL only the hosts whose GPUs could hold the workload's VRAM
 * ({@link CatalogRepository.VramNeed}, from {@link Fit}'s figures): over the benchmark's fleet
 * with history (H100, A100, L40S, RTX 4090 and H200 hosts, PCIe and NVLink, maintenance, offline
 * hosts, degraded GPUs, other GPU counts), the offers that fit, their counts and free GPUs are
 * the same as from every offer of the filters, for several workloads, windows and GPU limits, and
 * the narrowing does leave offers out. A workload nothing holds still gets the note that names
 * the most any offer of the filters has.
 */
@GatewayTest
class WorkloadPrefilterTest {
  private static final Instant HOUR = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(1, ChronoUnit.HOURS);
  private static final CatalogRepository.Filter NO_FILTER = new CatalogRepository.Filter(null, null, null, null, null,
      null);

  @Test
  void sqlNarrowsToWhatTheFitWouldTakeAnyway(TestGateway node) throws IOException {
    seed(node);
    CatalogRepository repository = new CatalogRepository(node.gateway().pool());
    List<Map<String, String>> workloads = List.of(
        Map.of("workload", "llm-inference"),
        Map.of("workload", "llm-inference", "model", "llama-3.1-70b", "context", "8192", "sequences", "8"),
        Map.of("workload", "llm-inference", "model", "llama-3.1-405b"),
        Map.of("workload", "llm-inference", "params_b", "250"),
        Map.of("workload", "image-generation", "model", "flux.1-dev", "batch", "16"),
        Map.of("workload", "llm-finetune", "model", "llama-3.1-70b"));
    List<CatalogRepository.Filter> filters = List.of(NO_FILTER,
        new CatalogRepository.Filter(null, null, "us-east", null, null, null),
        new CatalogRepository.Filter(null, 48, null, null, "NVLink", 400L));
    List<OffsetDateTime[]> windows = List.of(window(0, 1), window(24, 24), window(24, 72));
    int[][] limits = {{1, Integer.MAX_VALUE}, {2, 4}, {1, 1}};
    int narrowed = 0;
    int compared = 0;
    for (Map<String, String> given : workloads) {
      Map<String, String> params = new HashMap<>(given);
      Workloads.Workload workload = Workloads.resolve(params.remove("workload"), params);
      CatalogRepository.VramNeed need = WorkloadSearch.vramNeed(workload);
      for (CatalogRepository.Filter filter : filters) {
        for (OffsetDateTime[] window : windows) {
          List<OfferRow> all = TestGateway.await(repository.offers(filter, window[0], window[1]));
          List<OfferRow> some = TestGateway.await(repository.offers(filter, window[0], window[1], need));
          narrowed += some.size() < all.size() ? 1 : 0;
          for (int[] limit : limits) {
            String what = given + " " + filter + " " + window[0] + " " + limit[0] + ".." + limit[1];
            List<String> fitted = fitted(workload, all, limit);
            assertEquals(fitted, fitted(workload, some, limit), what);
            compared += fitted.isEmpty() ? 0 : 1;
          }
          assertEquals(WorkloadSearch.unmet(workload, all) == null, WorkloadSearch.unmet(workload, some) == null,
              given + " fits somewhere either way");
        }
      }
    }
    assertTrue(narrowed >= 9, "the larger workloads leave hosts out: " + narrowed);
    assertTrue(compared >= 40, "most comparisons list offers: " + compared);
  }

  @Test
  void aWorkloadNothingHoldsNamesTheMostOfEveryOffer(TestGateway node) throws IOException {
    seed(node);
    String start = "&start=" + HOUR.plus(1, ChronoUnit.DAYS) + "&hours=24";
    JsonObject none = json(node, "/api/v1/offers?workload=llm-inference&params_b=2000" + start);
    assertEquals(0, none.getJsonArray("data").size());
    String unmet = none.getJsonObject("workload").getString("unmet");
    assertNotNull(unmet);
    assertTrue(unmet.contains("the most an offer here has is 8 × H200 with 1,128 GB"), unmet);
    // and one that only 8 × 80 GB and more hold (554 GB): no note, no smaller GPUs listed
    JsonObject some = json(node, "/api/v1/offers?workload=llm-inference&params_b=250&limit=100" + start
        + "&include_unavailable=true");
    assertEquals(null, some.getJsonObject("workload").getString("unmet"));
    assertTrue(!some.getJsonArray("data").isEmpty());
    some.getJsonArray("data").stream().map(JsonObject.class::cast).forEach(offer -> assertTrue(
        List.of("H100 SXM", "A100 80GB", "H200").contains(offer.getString("gpu_model")), offer.encode()));
  }

  /** The offers that hold the workload within the limits: id, fitted count, free GPUs. */
  private static List<String> fitted(Workloads.Workload workload, List<OfferRow> rows, int[] limit) {
    List<String> fitted = new ArrayList<>();
    rows.stream().sorted(java.util.Comparator.comparing(OfferRow::id)).forEach(row -> {
      Fit fit = WorkloadSearch.fit(workload, row, limit[0], limit[1]);
      if (fit != null) {
        fitted.add(row.id() + ":" + fit.gpuCount() + ":" + row.gpusAvailable() + ":" + row.bookable(fit.gpuCount(),
            fit.gpuCount()));
      }
    });
    return fitted;
  }

  private static OffsetDateTime[] window(int fromHours, int hours) {
    OffsetDateTime start = HOUR.plus(fromHours, ChronoUnit.HOURS).atOffset(ZoneOffset.UTC);
    return new OffsetDateTime[] {start, start.plusHours(hours)};
  }

  /** The benchmark's fleet (24 hosts), some offers with other counts, some precomputed rows missing. */
  private static void seed(TestGateway node) throws IOException {
    if (node.sql("SELECT count(*) FROM hosts WHERE id LIKE 'host_b%'").iterator().next().getLong(0) == 24) {
      return;
    }
    BenchFleet.seed(node, 24);
    node.sql("UPDATE offers SET gpu_counts = '{2,4}' WHERE id ~ '^off_b[0-9]*7$'");
    node.sql("UPDATE offers SET gpu_counts = '{1}' WHERE id ~ '^off_b[0-9]*4$'");
    node.sql("DELETE FROM offer_figures WHERE offer_id IN ('off_b5', 'off_b10', 'off_b19')");
    TestGateway.await(node.gateway().vertx().eventBus().request(CatalogChanges.ADDRESS, "test"));
  }

  private static JsonObject json(TestGateway node, String path) {
    HttpResponse<String> response = node.get(path);
    assertEquals(200, response.statusCode(), path + ": " + response.body());
    return new JsonObject(response.body());
  }
}
