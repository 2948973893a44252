package io.gpurental.gateway.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestBookings;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Choosing by workload over the sandbox demo fleet: H200 141 GB ×8 (NVLink), H100 80 GB ×8 (NVLink),
 * A100 80 GB ×4 (NVLink), L40S 48 GB ×8 (PCIe), RTX 4090 24 GB ×4 (PCIe), RTX 5090 32 GB ×2 (PCIe).
 */
@GatewayTest(settings = TestGateway.LONG_SEARCH_CACHE)
class WorkloadSearchTest {
  private static final Instant START = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static final String LLAMA_70B_8K_X8 = "&workload=llm-inference&model=llama-3.1-70b&context=8192&sequences=8";
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @AfterEach
  void clearBookings() {
    change("DELETE FROM reservation_gpus");
    change("DELETE FROM reservations");
    change("UPDATE hosts SET status = 'active'");
  }

  @Test
  void presetsListTheirParametersFormulasAndSources() {
    JsonObject answer = get("/api/v1/workloads");
    List<String> ids = answer.getJsonArray("data").stream().map(p -> ((JsonObject) p).getString("id")).toList();
    assertEquals(List.of("llm-inference", "llm-finetune", "image-generation", "video-generation", "3d-rendering",
        "batch-data"), ids);
    JsonObject inference = answer.getJsonArray("data").getJsonObject(0);
    JsonObject context = inference.getJsonArray("parameters").stream().map(JsonObject.class::cast)
        .filter(p -> p.getString("name").equals("context")).findFirst().orElseThrow();
    assertEquals(new JsonObject().put("name", "context").put("type", "integer").put("unit", "tokens")
        .put("description", "Tokens per sequence (prompt plus output).").put("default", 8192L)
        .put("minimum", 128L).put("maximum", 1_048_576L), context);
    assertTrue(inference.getString("formula").contains("2 × layers × KV heads × head dim"));
    assertFalse(inference.getJsonArray("sources").isEmpty());
    JsonObject v3 = answer.getJsonArray("architectures").stream().map(JsonObject.class::cast)
        .filter(a -> a.getString("id").equals("deepseek-v3")).findFirst().orElseThrow();
    assertEquals(61 * 576, v3.getInteger("kv_values_per_token"));
    assertEquals(37.0, v3.getDouble("active_params_b"));
  }

  @Test
  void llama70bServingFitsEachOfferAtItsSmallestCount() {
    JsonObject answer = search(LLAMA_70B_8K_X8);
    // (141.2 GB weights + 21.5 GB KV cache) × 1.1 = 179 GB; the 24 and 32 GB cards top out at 96 and 64 GB
    assertEquals(Map.of("off_fra_l40s_01", 4, "off_fra_a100_01", 4, "off_nyc_h200_01", 2, "off_nyc_h100_01", 4),
        counts(answer));
    assertEquals(List.of("off_fra_l40s_01", "off_fra_a100_01", "off_nyc_h200_01", "off_nyc_h100_01"),
        new java.util.ArrayList<>(counts(answer).keySet()), "cheapest window total first: 4 × 79, 4 × 119, 2 × 329, 4 × 199");
    JsonObject h200 = offer(answer, "off_nyc_h200_01");
    assertEquals("2 × H200: 282 GB for 141 GB of weights and 21 GB of KV cache at 8k context × 8 sequences (bf16),"
        + " 179 GB in all with runtime overhead", h200.getJsonObject("fit").getString("sentence"));
    assertEquals(178.94, h200.getJsonObject("fit").getJsonObject("need").getDouble("total_vram_gb"));
    JsonObject plainAtTwo = offer(search("&gpu_model=H200&min_gpus=2"), "off_nyc_h200_01");
    assertEquals(plainAtTwo.getJsonObject("window_total"), h200.getJsonObject("window_total"),
        "the all-in price for 2 GPUs, as the search prices any count");
    assertEquals(plainAtTwo.getJsonArray("price_items"), h200.getJsonArray("price_items"));
    assertNull(answer.getJsonObject("workload").getString("unmet"));
    assertEquals(8192, answer.getJsonObject("workload").getJsonObject("parameters").getInteger("context"));
  }

  @Test
  void fineTuningNeedsNvlinkBeyondOneGpuAndLoraFitsOneCard() {
    JsonObject full = search("&workload=llm-finetune&params_b=13&method=full");
    assertNull(full.getJsonObject("workload").getJsonObject("parameters").getValue("model"), "a size, not the default model");
    assertEquals(Map.of("off_fra_a100_01", 4, "off_nyc_h200_01", 2, "off_nyc_h100_01", 4), counts(full),
        "259 GB: 8 × L40S would hold it, but over PCIe");
    JsonObject lora = search("&workload=llm-finetune&params_b=13&method=lora");
    assertEquals(Map.of("off_osl_5090_01", 1, "off_fra_l40s_01", 1, "off_fra_a100_01", 1, "off_nyc_h100_01", 1,
        "off_nyc_h200_01", 1), counts(lora), "30.8 GB: one 32 GB card; two 4090s over PCIe do not train");
    JsonObject qlora = search("&workload=llm-finetune&params_b=65&method=qlora&lora_rank=64&sequence_length=512");
    assertEquals(1, counts(qlora).get("off_fra_l40s_01"), "the QLoRA paper's 65B on one 48 GB GPU");
  }

  @Test
  void otherFiltersAndTheWindowStillApply() {
    assertEquals(Map.of("off_fra_l40s_01", 4, "off_fra_a100_01", 4), counts(search(LLAMA_70B_8K_X8 + "&region=eu-central")));
    assertEquals(Map.of("off_nyc_h200_01", 4, "off_nyc_h100_01", 4, "off_fra_l40s_01", 4, "off_fra_a100_01", 4),
        counts(search(LLAMA_70B_8K_X8 + "&min_gpus=3")), "the smallest fitting count of at least 3");
    TestBookings.book(node, "host_nyc_h200_01", 7, START, START.plus(30, ChronoUnit.DAYS));
    change("SELECT 1");
    assertFalse(counts(search(LLAMA_70B_8K_X8)).containsKey("off_nyc_h200_01"), "one H200 free, two needed");
    JsonObject unavailable = offer(search(LLAMA_70B_8K_X8 + "&include_unavailable=true"), "off_nyc_h200_01");
    assertFalse(unavailable.getBoolean("bookable"));
    assertEquals(2, unavailable.getJsonObject("window").getInteger("gpu_count"));
  }

  @Test
  void aWorkloadThatFitsNowhereSaysWhatItWouldNeed() {
    JsonObject answer = search("&workload=llm-inference&model=deepseek-v3&precision=bf16");
    assertTrue(answer.getJsonArray("data").isEmpty());
    String unmet = answer.getJsonObject("workload").getString("unmet");
    assertTrue(unmet.startsWith("Needs 1,477 GB of VRAM in all (1,342 GB of weights"), unmet);
    assertTrue(unmet.endsWith("the most an offer here has is 8 × H200 with 1,128 GB."), unmet);
    assertEquals(Map.of("off_nyc_h200_01", 8), counts(search("&workload=llm-inference&model=deepseek-v3&precision=fp8")),
        "in fp8 (its native precision) 8 × H200 hold it");
  }

  @Test
  void theOfferPageShowsTheFitOfTheWorkloadItWasReachedFrom() {
    JsonObject h200 = get("/api/v1/offers/off_nyc_h200_01?start=" + START + LLAMA_70B_8K_X8);
    assertTrue(h200.getJsonObject("fit").getBoolean("fits"));
    assertEquals(2, h200.getJsonObject("window").getInteger("gpu_count"));
    JsonObject rtx = get("/api/v1/offers/off_osl_4090_01?start=" + START + LLAMA_70B_8K_X8);
    assertFalse(rtx.getJsonObject("fit").getBoolean("fits"));
    assertTrue(rtx.getJsonObject("fit").getString("sentence").endsWith("4 × RTX 4090 with 96 GB."));
    assertNull(get("/api/v1/offers/off_osl_4090_01").getValue("fit"), "no workload, no fit");
  }

  @Test
  void workloadSearchesShareTheCachedRowsAndDropThemOnChange() {
    assertTrue(counts(search(LLAMA_70B_8K_X8)).containsKey("off_fra_a100_01"));
    node.sql("UPDATE hosts SET status = 'maintenance' WHERE id = 'host_fra_a100_01'");
    assertTrue(counts(search(LLAMA_70B_8K_X8 + "&sequences=1")).containsKey("off_fra_a100_01"),
        "another workload over the same filters and window is served from the cache");
    change("SELECT 1");
    assertFalse(counts(search(LLAMA_70B_8K_X8)).containsKey("off_fra_a100_01"));
  }

  @Test
  void badWorkloadParametersAreNamed() {
    assertBadRequest("&workload=llm-inference&context=64", "#/context");
    assertBadRequest("&workload=llm-inference&method=lora", "#/method");
    assertBadRequest("&workload=llm-inference&model=gpt-5", "#/model");
    assertBadRequest("&workload=llm-inference&model=mixtral-8x7b&context=65536", "#/context");
    assertBadRequest("&workload=llm-finetune&method=qlora&precision=bf16", "#/precision");
    assertBadRequest("&workload=image-generation&batch=17", "#/batch");
    assertBadRequest("&workload=mining", "#/workload");
    assertBadRequest("&context=8192", "#/context");
    assertBadRequest("&workload=llm-inference&sequences=many", "sequences");
    assertBadRequest("&workload=llm-inference&temperature=1", "temperature");
    HttpResponse<String> offerPage = node.get("/api/v1/offers/off_nyc_h200_01?workload=3d-rendering&scene_gb=0");
    assertEquals(400, offerPage.statusCode(), offerPage.body());
    assertTrue(offerPage.body().contains("#/scene_gb"), offerPage.body());
  }

  private static void assertBadRequest(String query, String named) {
    HttpResponse<String> response = node.get("/api/v1/offers?start=" + START + query);
    assertEquals(400, response.statusCode(), query + ": " + response.body());
    assertEquals("application/problem+json", response.headers().firstValue("content-type").orElse(""));
    assertTrue(response.body().contains(named), query + " should name " + named + ": " + response.body());
  }

  /** Offer id → the GPU count it is listed at, in the listing's order. */
  private static Map<String, Integer> counts(JsonObject answer) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    answer.getJsonArray("data").stream().map(JsonObject.class::cast).forEach(offer -> {
      assertEquals(offer.getJsonObject("window").getInteger("gpu_count"), offer.getJsonObject("fit").getInteger("gpu_count"));
      counts.put(offer.getString("id"), offer.getJsonObject("window").getInteger("gpu_count"));
    });
    return counts;
  }

  private static JsonObject offer(JsonObject answer, String id) {
    JsonArray data = answer.getJsonArray("data");
    return data.stream().map(JsonObject.class::cast).filter(o -> o.getString("id").equals(id)).findFirst().orElseThrow();
  }

  private static JsonObject search(String query) {
    return get("/api/v1/offers?start=" + START + query);
  }

  private static void change(String sql) {
    node.sql(sql);
    TestGateway.await(node.gateway().vertx().eventBus().request(CatalogChanges.ADDRESS, "test"));
  }

  private static JsonObject get(String path) {
    HttpResponse<String> response = node.get(path);
    assertEquals(200, response.statusCode(), path + ": " + response.body());
    return new JsonObject(response.body());
  }
}
