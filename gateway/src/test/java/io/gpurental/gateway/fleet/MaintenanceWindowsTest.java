package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestBookings;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Transaction;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Maintenance windows: overlapping reservations are listed before a window is saved, and no new
 * reservation may overlap a saved one (catalog, quotes, reservations); cancelling frees the hours.
 */
@GatewayTest(settings = TestGateway.LONG_SEARCH_CACHE)
class MaintenanceWindowsTest {
  private static final String HOST = "host_fra_l40s_01";
  private static final String OFFER = "off_fra_l40s_01";
  private static final String PATH = "/api/v1/operator/hosts/" + HOST + "/maintenance";
  /** The window under test: 5 h, two days ahead (nothing about "now" matters). */
  private static final Instant START = Instant.now().plus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static final Instant END = START.plus(5, ChronoUnit.HOURS);
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @AfterEach
  void clear() {
    node.sql("DELETE FROM reservation_gpus");
    node.sql("DELETE FROM reservation_events");
    node.sql("DELETE FROM refunds");
    node.sql("DELETE FROM reservation_extensions");
    node.sql("DELETE FROM payments");
    node.sql("DELETE FROM reservations");
    node.sql("DELETE FROM maintenance_windows");
    // a request, not a publish: the next test's first search must not find this one's cached rows
    TestGateway.await(node.gateway().vertx().eventBus().request(CatalogChanges.ADDRESS, "test"));
  }

  @Test
  void overlappingReservationsAreListedBeforeAnythingIsSaved(@SignedIn("operator") ApiClient operator) {
    TestBookings.book(node, HOST, 2, START.minus(1, ChronoUnit.HOURS), START.plus(1, ChronoUnit.HOURS));
    TestBookings.book(node, HOST, 1, END, END.plus(3, ChronoUnit.HOURS)); // adjacent: not an overlap

    HttpResponse<String> preview = operator.post(PATH + "?dry_run=true", window(false));
    assertEquals(200, preview.statusCode(), preview.body());
    assertEquals(0L, windows(), "a dry run saves nothing");
    JsonObject overlap = new JsonObject(preview.body()).getJsonArray("overlapping_reservations").getJsonObject(0);
    assertEquals(1, new JsonObject(preview.body()).getJsonArray("overlapping_reservations").size(), preview.body());
    assertEquals("confirmed", overlap.getString("status"));
    assertEquals(2, overlap.getInteger("gpu_count"));
    assertEquals(START.minus(1, ChronoUnit.HOURS).toString(), overlap.getJsonObject("window").getString("start"));
    assertTrue(overlap.getString("id").startsWith("rsv_"));

    HttpResponse<String> refused = operator.post(PATH, window(false));
    assertEquals(409, refused.statusCode(), refused.body());
    assertEquals("application/problem+json", refused.headers().firstValue("Content-Type").orElse(""));
    assertEquals(overlap, new JsonObject(refused.body()).getJsonArray("overlapping_reservations").getJsonObject(0));
    assertEquals(0L, windows(), "not acknowledged: nothing saved");

    HttpResponse<String> saved = operator.post(PATH, window(false).put("acknowledge_overlaps", true));
    assertEquals(201, saved.statusCode(), saved.body());
    JsonObject body = new JsonObject(saved.body());
    assertEquals(overlap, body.getJsonArray("overlapping_reservations").getJsonObject(0));
    String id = body.getJsonObject("maintenance").getString("id");
    assertTrue(id.startsWith("mnt_"), id);
    assertEquals(1L, count("SELECT count(*) FROM audit_log WHERE action = 'maintenance.scheduled' AND target = '" + id
        + "' AND actor LIKE 'account:%'"));
    JsonArray listed = operator.json(PATH).getJsonArray("data");
    assertEquals(id, listed.getJsonObject(0).getString("id"));
    assertEquals(START.toString(), listed.getJsonObject(0).getString("starts_at"));
  }

  @Test
  void aWindowBlocksOverlappingQuotesAndReservationsButNotAdjacentOnes(@SignedIn("operator") ApiClient operator,
      @SignedIn("alice") ApiClient renter) {
    JsonObject quotedBefore = renter.quote(OFFER, 1, START.minus(2, ChronoUnit.HOURS), 3); // overlaps its first hour
    assertTrue(bookable(START, 5), "free before the window exists");
    HttpResponse<String> saved = operator.post(PATH, window(false));
    assertEquals(201, saved.statusCode(), saved.body());
    String id = new JsonObject(saved.body()).getJsonObject("maintenance").getString("id");

    // the save's event reaches the cache asynchronously, well within its (here long) lifetime
    eventually("the cached search is dropped", TestGateway.AT_ONCE, () -> bookable(START, 5), bookable -> !bookable);
    HttpResponse<String> quote = quote(START.plus(4, ChronoUnit.HOURS), 2);
    assertEquals(409, quote.statusCode(), quote.body());
    assertTrue(new JsonObject(quote.body()).getString("detail").contains(id), quote.body());
    assertEquals(id, new JsonObject(quote.body()).getJsonObject("maintenance").getString("id"));
    assertEquals(201, quote(START.minus(3, ChronoUnit.HOURS), 3).statusCode(), "ending as the window starts");
    assertEquals(201, quote(END, 2).statusCode(), "starting as it ends");
    assertTrue(bookable(END, 2));

    HttpResponse<String> reserved = renter.post("/api/v1/reservations", new JsonObject()
        .put("quote_id", quotedBefore.getString("id")).put("ssh_public_key", ApiClient.SSH_KEY).put("payment", "checkout"));
    assertEquals(409, reserved.statusCode(), "a quote made before the window is re-checked: " + reserved.body());
    assertTrue(new JsonObject(reserved.body()).getString("detail").contains(id), reserved.body());
    assertEquals(0L, count("SELECT count(*) FROM reservations"), "nothing half-written");

    JsonObject availability = new JsonObject(node.get("/api/v1/offers/" + OFFER).body()).getJsonObject("availability");
    JsonArray free = availability.getJsonArray("free");
    // from the server's hour, not the test's: the two differ when the hour turns in between
    int startHour = (int) Duration.between(Instant.parse(availability.getString("start")), START).toHours();
    assertTrue(free.getInteger(startHour - 1) > 0 && free.getInteger(startHour + 5) > 0, "around it: free");
    for (int h = startHour; h < startHour + 5; h++) {
      assertEquals(0, free.getInteger(h), "maintenance hours are not free: " + free);
    }
  }

  @Test
  void anExtensionIntoAWindowIsRefused(@SignedIn("operator") ApiClient operator, @SignedIn("bob") ApiClient renter) {
    renter.saveCard("4242424242424242");
    String id = renter.reserve(OFFER, 1, START.minus(2, ChronoUnit.HOURS), 2, "saved_card").getString("id");
    renter.awaitStatus(id, "confirmed");
    HttpResponse<String> saved = operator.post(PATH, window(false).put("acknowledge_overlaps", true));
    assertEquals(201, saved.statusCode(), saved.body());
    assertEquals(0, new JsonObject(saved.body()).getJsonArray("overlapping_reservations").size(), "it ends as it starts");
    HttpResponse<String> extended = renter.post("/api/v1/reservations/" + id + "/extend",
        new JsonObject().put("hours", 1).put("payment", "saved_card"));
    assertEquals(409, extended.statusCode(), extended.body());
    assertTrue(new JsonObject(extended.body()).getString("detail").contains("planned maintenance"), extended.body());
    assertEquals(0L, count("SELECT count(*) FROM reservation_extensions"));
  }

  /**
   * A window saved while a reservation is being made: the reservation waits for the host's
   * capacity lock the window's transaction holds, then sees the window and is refused.
   */
  @Test
  void aReservationRacingAWindowWaitsForItAndIsRefused(@SignedIn("alice") ApiClient renter) throws Exception {
    JsonObject quote = renter.quote(OFFER, 1, START, 2);
    SqlConnection maintenance = TestGateway.await(node.gateway().pool().getConnection());
    try {
      Transaction tx = TestGateway.await(maintenance.begin());
      TestGateway.await(maintenance.query("SELECT pg_advisory_xact_lock(hashtextextended('host-capacity:" + HOST
          + "', 0))").execute());
      CompletableFuture<HttpResponse<String>> reserving = CompletableFuture.supplyAsync(() -> renter.post(
          "/api/v1/reservations", new JsonObject().put("quote_id", quote.getString("id"))
              .put("ssh_public_key", ApiClient.SSH_KEY).put("payment", "checkout")));
      eventually("the reservation waits for the host's capacity lock", () -> count("SELECT count(*) FROM pg_locks"
          + " WHERE locktype = 'advisory' AND NOT granted"), waiting -> waiting == 1L);
      TestGateway.await(maintenance.query("INSERT INTO maintenance_windows (id, host_id, starts_at, ends_at, reason,"
          + " created_by) VALUES ('mnt_race', '" + HOST + "', '" + START + "', '" + END + "', 'race', 'test')").execute());
      TestGateway.await(tx.commit());
      HttpResponse<String> reserved = reserving.get(30, TimeUnit.SECONDS);
      assertEquals(409, reserved.statusCode(), reserved.body());
      assertTrue(new JsonObject(reserved.body()).getString("detail").contains("mnt_race"), reserved.body());
    } finally {
      TestGateway.await(maintenance.close());
    }
  }

  @Test
  void drainTakesNoNewReservationUntilTheWindowEnds(@SignedIn("operator") ApiClient operator) {
    Instant tomorrow = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
    assertEquals(201, operator.post(PATH, window(true)).statusCode());
    HttpResponse<String> before = quote(tomorrow, 2);
    assertEquals(409, before.statusCode(), "drain: nothing new before the window either: " + before.body());
    assertTrue(new JsonObject(before.body()).getString("detail").contains("takes no new reservation"), before.body());
    assertEquals(201, quote(END, 2).statusCode(), "after it ends, the host takes reservations again");
  }

  @Test
  void cancellingAWindowMakesItsHoursBookableAgain(@SignedIn("operator") ApiClient operator) {
    String id = new JsonObject(operator.post(PATH, window(false)).body()).getJsonObject("maintenance").getString("id");
    assertEquals(409, quote(START, 1).statusCode());
    HttpResponse<String> cancelled = operator.delete(PATH + "/" + id);
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    assertTrue(new JsonObject(cancelled.body()).getString("cancelled_at") != null);
    eventually("bookable again", TestGateway.AT_ONCE, () -> bookable(START, 1), Boolean::booleanValue);
    assertEquals(201, quote(START, 1).statusCode());
    assertEquals(0, operator.json(PATH).getJsonArray("data").size(), "no longer listed");
    assertEquals(1L, count("SELECT count(*) FROM audit_log WHERE action = 'maintenance.cancelled' AND target = '" + id
        + "'"));
    assertEquals(409, operator.delete(PATH + "/" + id).statusCode(), "cancelled already");
    assertEquals(404, operator.delete(PATH + "/mnt_unknown").statusCode());
  }

  @Test
  void invalidWindowsAre400AndUnknownHosts404(@SignedIn("operator") ApiClient operator,
      @SignedIn("alice") ApiClient renter) {
    assertProblem(operator.post(PATH, window(false).put("ends_at", START.toString())), 400, "#/ends_at");
    assertProblem(operator.post(PATH, window(false).put("starts_at", Instant.now().minus(1, ChronoUnit.HOURS).toString())),
        400, "#/starts_at");
    assertProblem(operator.post(PATH, window(false).put("ends_at", START.plus(31, ChronoUnit.DAYS).toString())), 400,
        "#/ends_at");
    assertEquals(400, operator.post(PATH, window(false).put("starts_at", "tomorrow")).statusCode());
    assertEquals(400, operator.post(PATH, window(false).put("colour", "red")).statusCode(), "no unknown fields");
    assertEquals(404, operator.post("/api/v1/operator/hosts/host_unknown/maintenance", window(false)).statusCode());
    assertEquals(403, renter.post(PATH, window(false)).statusCode(), "operators only");
    assertEquals(0L, windows());
  }

  private static JsonObject window(boolean drain) {
    return new JsonObject().put("starts_at", START.toString()).put("ends_at", END.toString()).put("drain", drain)
        .put("reason", "BIOS update");
  }

  private static HttpResponse<String> quote(Instant start, int hours) {
    return node.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.url("/api/v1/quotes")))
        .header("Content-Type", "application/json")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(new JsonObject().put("offer_id", OFFER)
            .put("gpu_count", 1).put("hours", hours).put("start", start.toString()).encode())));
  }

  private static boolean bookable(Instant start, int hours) {
    JsonObject page = new JsonObject(node.get("/api/v1/offers?limit=100&include_unavailable=true&hours=" + hours
        + "&start=" + start).body());
    return page.getJsonArray("data").stream().map(JsonObject.class::cast).filter(o -> OFFER.equals(o.getString("id")))
        .findFirst().orElseThrow().getBoolean("bookable");
  }

  private static void assertProblem(HttpResponse<String> response, int status, String pointer) {
    assertEquals(status, response.statusCode(), response.body());
    assertEquals(pointer, new JsonObject(response.body()).getJsonArray("errors").getJsonObject(0).getString("pointer"),
        response.body());
  }

  private static long windows() {
    return count("SELECT count(*) FROM maintenance_windows");
  }

  private static long count(String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }
}
