package io.gpurental.gateway.catalog;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;


import io.gpurental.gateway.fleet.HostChanges;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestBookings;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Search over the sandbox demo fleet (6 offers, 34 GPUs): filters, sorts, availability. */
// a long cache lifetime: "served from the cache" must not end by expiry during a stall
@GatewayTest(settings = TestGateway.LONG_SEARCH_CACHE)
class CatalogSearchTest {
  private static TestGateway node;
  /** A window a day ahead, so "now" never matters. */
  private static final Instant START = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);

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

  /** A direct change to the catalog's tables, announced as the features that make them will. */
  private static void change(String sql) {
    node.sql(sql);
    TestGateway.await(node.gateway().vertx().eventBus().request(CatalogChanges.ADDRESS, "test"));
  }

  @Test
  void cachedSearchesAreDroppedWhenTheCatalogChanges() {
    assertTrue(ids("").contains("off_fra_a100_01"));
    // maintenance, not offline: the host's demo agent heartbeats, and a heartbeat makes an offline host active
    node.sql("UPDATE hosts SET status = 'maintenance' WHERE id = 'host_fra_a100_01'");
    assertTrue(ids("").contains("off_fra_a100_01"), "served from the cache until a change is announced");
    change("SELECT 1");
    assertFalse(ids("").contains("off_fra_a100_01"));
  }

  @Test
  void aHostStatusChangeAnnouncedByTheFleetDropsCachedSearches() {
    assertTrue(ids("").contains("off_fra_a100_01"));
    node.sql("UPDATE hosts SET status = 'maintenance' WHERE id = 'host_fra_a100_01'");
    assertTrue(ids("").contains("off_fra_a100_01"), "served from the cache until a change is announced");
    node.gateway().vertx().eventBus().publish(HostChanges.ADDRESS,
        new JsonObject().put("host_id", "host_fra_a100_01").put("status", "maintenance"));
    eventually("the cached search is dropped", TestGateway.AT_ONCE, () -> ids(""),
        offers -> !offers.contains("off_fra_a100_01"));
  }

  @Test
  void everyDemoOfferIsBookableByDefault() {
    assertEquals(List.of("off_osl_4090_01", "off_osl_5090_01", "off_fra_l40s_01", "off_fra_a100_01",
        "off_nyc_h100_01", "off_nyc_h200_01"), ids(""), "sorted by all-in price");
  }

  @Test
  void filtersSelectExactlyTheMatchingOffers() {
    assertEquals(List.of("off_nyc_h100_01"), ids("&gpu_model=H100%20SXM"));
    assertEquals(List.of("off_fra_a100_01", "off_nyc_h100_01", "off_nyc_h200_01"), ids("&min_vram_gb=80"));
    assertEquals(List.of("off_fra_l40s_01", "off_fra_a100_01"), ids("&region=eu-central"));
    assertEquals(List.of("off_osl_4090_01", "off_osl_5090_01"), ids("&site=Oslo%201"));
    assertEquals(List.of("off_osl_4090_01", "off_osl_5090_01", "off_fra_l40s_01"), ids("&interconnect=PCIe"));
    assertEquals(List.of("off_osl_4090_01", "off_osl_5090_01", "off_fra_l40s_01"), ids("&max_price_per_gpu_hour=79"));
    assertEquals(List.of("off_fra_l40s_01", "off_nyc_h100_01", "off_nyc_h200_01"), ids("&min_gpus=8"));
    assertEquals(List.of("off_osl_4090_01", "off_fra_l40s_01", "off_fra_a100_01", "off_nyc_h100_01",
        "off_nyc_h200_01"), ids("&min_gpus=3"), "the 2-GPU host cannot give 3");
  }

  @Test
  void sortsOrderByTheirKey() {
    assertEquals(List.of("off_nyc_h200_01", "off_fra_a100_01", "off_nyc_h100_01", "off_fra_l40s_01",
        "off_osl_5090_01", "off_osl_4090_01"), ids("&sort=vram"));
    // all-in cents per GPU-hour ÷ VRAM: 36/24, 123/80, 81/48, 67/32, 339/141, 205/80
    assertEquals(List.of("off_osl_4090_01", "off_fra_a100_01", "off_fra_l40s_01", "off_osl_5090_01",
        "off_nyc_h200_01", "off_nyc_h100_01"), ids("&sort=price_per_vram_gb"));
    book("host_fra_l40s_01", 3);
    List<String> byAvailability = ids("&sort=availability");
    assertEquals("off_fra_l40s_01", byAvailability.get(2), "5 free: after the two 8-GPU hosts");
  }

  @Test
  void aFullyBookedOfferDisappearsAndAPartlyBookedOneShowsWhatIsFree() {
    book("host_fra_a100_01", 4);
    book("host_nyc_h100_01", 3);
    assertFalse(ids("").contains("off_fra_a100_01"));
    JsonObject h100 = offers("&gpu_model=H100%20SXM").getJsonObject(0);
    assertEquals(5, h100.getInteger("gpus_available"));
    assertEquals(8, h100.getInteger("gpus_total"));
    assertTrue(ids("&min_gpus=8").stream().noneMatch("off_nyc_h100_01"::equals), "8 no longer fit");

    JsonObject a100 = offers("&include_unavailable=true&gpu_model=A100%2080GB").getJsonObject(0);
    assertEquals(0, a100.getInteger("gpus_available"));
    assertFalse(a100.getBoolean("bookable"));
  }

  @Test
  void aBookingOutsideTheWindowDoesNotCount() {
    book("host_fra_a100_01", 4, START.plus(5, ChronoUnit.HOURS), START.plus(6, ChronoUnit.HOURS));
    assertTrue(ids("&hours=5").contains("off_fra_a100_01"), "ends exactly when the booking starts");
    assertFalse(ids("&hours=6").contains("off_fra_a100_01"));
  }

  @Test
  void hostInMaintenanceHasNothingAvailable() {
    change("UPDATE hosts SET status = 'maintenance' WHERE id = 'host_nyc_h200_01'");
    assertFalse(ids("").contains("off_nyc_h200_01"));
  }

  @Test
  void offersCarryTheItemisedWindowPriceAndSavings() {
    JsonObject h100 = offers("&gpu_model=H100%20SXM&hours=24").getJsonObject(0);
    assertEquals(199, h100.getJsonObject("price_per_gpu_hour").getLong("amount"));
    assertEquals(4673, h100.getJsonObject("window_total").getLong("amount"), "4776 − 239 + 136");
    assertEquals(195, h100.getJsonObject("all_in_per_gpu_hour").getLong("amount"));
    assertEquals(72, h100.getJsonObject("savings").getInteger("vs_hyperscaler_percent"), "195 vs 688");
    assertEquals(3, h100.getJsonArray("price_items").size());
    assertEquals("NVLink", h100.getJsonObject("hardware").getString("interconnect"));
  }

  @Test
  void anOfferWithoutItsOwnPriceUsesTheModelAndSiteDefault() {
    node.sql("INSERT INTO hosts (id, site_id, name, cpu_model, cpu_cores, ram_gb, nvme_gb, net_gbps, interconnect)"
        + " VALUES ('host_test_l40s', 'site_fra1', 'fra-l40s-test', 'AMD EPYC 9454', 96, 1024, 15360, 100, 'PCIe')");
    node.sql("INSERT INTO gpus (id, host_id, idx, model, vram_gb) VALUES ('gpu_test_l40s_0', 'host_test_l40s', 0, 'L40S', 48)");
    change("INSERT INTO offers (id, host_id, gpu_counts, cpu_cores_per_gpu, ram_gb_per_gpu, nvme_gb_per_gpu)"
        + " VALUES ('off_test_l40s', 'host_test_l40s', '{1}', 12, 128, 1920)");
    try {
      assertFalse(ids("").contains("off_test_l40s"), "no price, not for sale");
      change("INSERT INTO prices (gpu_model, site_id, amount_per_gpu_hour, currency, effective_from, set_by)"
          + " VALUES ('L40S', 'site_fra1', 72, 'usd', now() - interval '1 minute', 'test')");
      JsonObject offer = offers("&include_unavailable=true").stream().map(JsonObject.class::cast)
          .filter(o -> o.getString("id").equals("off_test_l40s")).findFirst().orElseThrow();
      assertEquals(72, offer.getJsonObject("price_per_gpu_hour").getLong("amount"));
      assertEquals(79, offers("&gpu_model=L40S").stream().map(JsonObject.class::cast)
          .filter(o -> o.getString("id").equals("off_fra_l40s_01")).findFirst().orElseThrow()
          .getJsonObject("price_per_gpu_hour").getLong("amount"), "an offer's own price wins");
    } finally {
      node.sql("DELETE FROM prices WHERE set_by = 'test'");
      node.sql("DELETE FROM offers WHERE id = 'off_test_l40s'");
      node.sql("DELETE FROM gpus WHERE id = 'gpu_test_l40s_0'");
      change("DELETE FROM hosts WHERE id = 'host_test_l40s'");
    }
  }

  @Test
  void pagesFollowTheCursor() {
    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonObject page = get("/api/v1/offers?limit=4" + (cursor == null ? "" : "&cursor=" + cursor));
      page.getJsonArray("data").forEach(offer -> seen.add(((JsonObject) offer).getString("id")));
      cursor = page.getString("next_cursor");
      pages++;
    } while (cursor != null);
    assertEquals(2, pages);
    assertEquals(ids(""), seen);
  }

  @Test
  void offerDetailHasA14DayHourlyTimelineAndPriceHistory() {
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    book("host_osl_5090_01", 2, hour.plus(3, ChronoUnit.HOURS), hour.plus(5, ChronoUnit.HOURS));
    JsonObject offer = get("/api/v1/offers/off_osl_5090_01");
    JsonArray free = offer.getJsonObject("availability").getJsonArray("free");
    assertEquals(336, free.size());
    // counted from the server's hour, which may be the next one if the hour turned since the booking
    Instant timelineStart = Instant.parse(offer.getJsonObject("availability").getString("start"));
    int booked = (int) Duration.between(timelineStart, hour.plus(3, ChronoUnit.HOURS)).toHours();
    List<Integer> expected = new ArrayList<>();
    for (int h = 0; h <= booked + 2; h++) {
      expected.add(h == booked || h == booked + 1 ? 0 : 2);
    }
    assertEquals(expected, free.getList().subList(0, booked + 3));
    assertEquals(65, offer.getJsonArray("price_history").getJsonObject(0)
        .getJsonObject("amount_per_gpu_hour").getLong("amount"));
  }

  @Test
  void aGpuBookedForAnyPartOfAnHourIsNotFreeInThatHour() {
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    // GPU 0 from before the strip to 1:20, again 5:30-7:00; both GPUs 9:10-9:50
    List<Instant[]> gpu0 = List.of(new Instant[] {hour.minus(2, ChronoUnit.HOURS), hour.plus(80, ChronoUnit.MINUTES)},
        new Instant[] {hour.plus(330, ChronoUnit.MINUTES), hour.plus(7, ChronoUnit.HOURS)});
    Instant[] both = {hour.plus(550, ChronoUnit.MINUTES), hour.plus(590, ChronoUnit.MINUTES)};
    gpu0.forEach(b -> book("host_osl_5090_01", 1, b[0], b[1]));
    book("host_osl_5090_01", 2, both[0], both[1]);
    JsonObject availability = get("/api/v1/offers/off_osl_5090_01").getJsonObject("availability");
    Instant start = Instant.parse(availability.getString("start"));
    List<Integer> expected = new ArrayList<>();
    for (int h = 0; h < 14 * 24; h++) {
      Instant from = start.plus(h, ChronoUnit.HOURS);
      Instant to = from.plus(1, ChronoUnit.HOURS);
      boolean first = gpu0.stream().anyMatch(b -> b[0].isBefore(to) && b[1].isAfter(from))
          || both[0].isBefore(to) && both[1].isAfter(from);
      boolean second = both[0].isBefore(to) && both[1].isAfter(from);
      expected.add(2 - (first ? 1 : 0) - (second ? 1 : 0));
    }
    assertEquals(expected, availability.getJsonArray("free").getList());
    // the hours the strip shows from the hour it starts (the hour may have turned since the bookings)
    if (start.equals(hour)) {
      assertEquals(List.of(1, 1, 2, 2, 2, 1, 1, 2, 2, 0, 2), expected.subList(0, 11));
    }
  }

  @Test
  void gpuModelsCarryReferencePrices() {
    JsonArray models = get("/api/v1/gpu-models").getJsonArray("data");
    assertEquals(6, models.size());
    JsonObject h100 = models.stream().map(JsonObject.class::cast).filter(m -> m.getString("name").equals("H100 SXM"))
        .findFirst().orElseThrow();
    assertEquals(688, h100.getJsonObject("reference_prices").getJsonObject("hyperscaler").getJsonObject("price")
        .getLong("amount"));
    JsonObject rtx = models.stream().map(JsonObject.class::cast).filter(m -> m.getString("name").equals("RTX 4090"))
        .findFirst().orElseThrow();
    assertNull(rtx.getJsonObject("reference_prices").getValue("hyperscaler"));
  }

  @Test
  void badInputNamesTheField() {
    assertBadRequest("/api/v1/offers?hours=0", "hours");
    assertBadRequest("/api/v1/offers?hours=100000", "hours");
    assertBadRequest("/api/v1/offers?hours=721", "hours");
    assertBadRequest("/api/v1/offers?start=2020-01-01T00:00:00Z", "start");
    assertBadRequest("/api/v1/offers?start=tomorrow", "start");
    assertBadRequest("/api/v1/offers?min_gpus=-2", "min_gpus");
    assertBadRequest("/api/v1/offers?gpu=H100", "gpu");
    assertBadRequest("/api/v1/offers?sort=cheapest", "sort");
    assertBadRequest("/api/v1/offers?cursor=garbage!", "cursor");
  }

  private static void assertBadRequest(String path, String field) {
    HttpResponse<String> response = node.get(path);
    assertEquals(400, response.statusCode(), path + ": " + response.body());
    assertTrue(response.body().contains(field), path + " should name " + field + ": " + response.body());
  }

  private static void book(String hostId, int gpus) {
    book(hostId, gpus, START, START.plus(30, ChronoUnit.DAYS));
  }

  private static void book(String hostId, int gpus, Instant from, Instant to) {
    TestBookings.book(node, hostId, gpus, from, to);
    change("SELECT 1");
  }

  private static List<String> ids(String filters) {
    List<String> ids = new ArrayList<>();
    offers(filters).forEach(offer -> ids.add(((JsonObject) offer).getString("id")));
    return ids;
  }

  private static JsonArray offers(String filters) {
    return get("/api/v1/offers?start=" + START + filters).getJsonArray("data");
  }

  private static JsonObject get(String path) {
    HttpResponse<String> response = node.get(path);
    assertEquals(200, response.statusCode(), path + ": " + response.body());
    return new JsonObject(response.body());
  }
}
