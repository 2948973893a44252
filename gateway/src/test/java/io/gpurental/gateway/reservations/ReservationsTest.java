package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Holds never double-book, even racing across two nodes; keys replay; others' reservations are hidden. */
class ReservationsTest {
  static final String SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl test@example";
  private static final Instant START = Instant.now().plus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static TestGateway a;
  private static TestGateway b;
  private static String aliceToken;
  private static String bobToken;

  @BeforeAll
  static void start() {
    List<Map<String, String>> cluster = TestGateway.twoNodeCluster();
    cluster.forEach(settings -> settings.put("GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "100000"));
    a = TestGateway.start(cluster.get(0));
    b = TestGateway.start(cluster.get(1));
    aliceToken = token("alice");
    bobToken = token("bob");
  }

  @AfterAll
  static void stop() {
    b.close();
    a.close();
  }

  @Test
  void fiftyClientsOnTwoNodesRacingForFourGpusNeverOverlap() throws Exception {
    int clients = 50;
    List<String> quoteIds = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      quoteIds.add(quote("off_fra_a100_01", 1 + i % 2, START.plus(i % 3, ChronoUnit.HOURS), 4).getString("id"));
    }
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      TestGateway node = i % 2 == 0 ? a : b;
      String quoteId = quoteIds.get(i);
      calls.add(CompletableFuture.supplyAsync(() -> reserve(node, aliceToken, quoteId, UUID.randomUUID().toString()), pool));
    }
    Set<String> created = new HashSet<>();
    int conflicts = 0;
    for (CompletableFuture<HttpResponse<String>> call : calls) {
      HttpResponse<String> response = call.get();
      if (response.statusCode() == 201) {
        created.add(new JsonObject(response.body()).getString("id"));
      } else {
        assertEquals(409, response.statusCode(), response.body());
        conflicts++;
      }
    }
    pool.shutdown();
    assertTrue(created.size() >= 1 && conflicts >= 1, created.size() + " created, " + conflicts + " refused");
    long overlapping = a.sql("SELECT count(*) FROM reservation_gpus x JOIN reservation_gpus y ON x.gpu_id = y.gpu_id"
        + " AND x.reservation_id < y.reservation_id AND x.period && y.period WHERE x.active AND y.active")
        .iterator().next().getLong(0);
    assertEquals(0, overlapping, "no GPU is held twice for overlapping time");
    long stored = a.sql("SELECT count(*) FROM reservations WHERE id IN ('" + String.join("','", created) + "')")
        .iterator().next().getLong(0);
    assertEquals(created.size(), stored, "every 2xx reservation exists");
  }

  @Test
  void theSameKeySentTenTimesAtOnceMakesOneReservation() throws Exception {
    String quoteId = quote("off_osl_5090_01", 1, START.plus(10, ChronoUnit.DAYS), 2).getString("id");
    String key = "retry-" + UUID.randomUUID();
    ExecutorService pool = Executors.newFixedThreadPool(10);
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      TestGateway node = i % 2 == 0 ? a : b;
      calls.add(CompletableFuture.supplyAsync(() -> reserve(node, aliceToken, quoteId, key), pool));
    }
    Set<String> bodies = new HashSet<>();
    for (CompletableFuture<HttpResponse<String>> call : calls) {
      HttpResponse<String> response = call.get();
      assertEquals(201, response.statusCode(), response.body());
      bodies.add(response.body());
    }
    pool.shutdown();
    assertEquals(1, bodies.size(), "identical responses");
    String id = new JsonObject(bodies.iterator().next()).getString("id");
    assertEquals(1, a.sql("SELECT count(*) FROM reservations WHERE quote_id = '" + quoteId + "'").iterator().next()
        .getLong(0));
    HttpResponse<String> different = reserveWith(a, aliceToken, key, new JsonObject().put("quote_id", quoteId)
        .put("ssh_public_key", SSH_KEY).put("payment", "saved_card"));
    assertEquals(422, different.statusCode(), "same key, different body");
    assertNotNull(id);
  }

  @Test
  void aHeldReservationIsLockedToTheQuotedPriceAndBlocksTheCatalog() {
    JsonObject quote = quote("off_nyc_h200_01", 8, START.plus(12, ChronoUnit.DAYS), 3);
    HttpResponse<String> response = reserve(a, aliceToken, quote.getString("id"), UUID.randomUUID().toString());
    assertEquals(201, response.statusCode(), response.body());
    JsonObject reservation = new JsonObject(response.body());
    assertEquals("pending_payment", reservation.getString("status"));
    assertEquals(quote.getJsonObject("total"), reservation.getJsonObject("price").getJsonObject("total"));
    assertEquals(8, reservation.getJsonArray("gpu_indexes").size());
    Instant holdUntil = Instant.parse(reservation.getString("hold_expires_at"));
    assertTrue(holdUntil.isAfter(Instant.now().plus(14, ChronoUnit.MINUTES)));
    assertEquals("created", reservation.getJsonArray("events").getJsonObject(0).getString("cause"));
    JsonArray offers = new JsonObject(b.get("/api/v1/offers?gpu_model=H200&hours=3&start="
        + START.plus(12, ChronoUnit.DAYS)).body()).getJsonArray("data");
    assertTrue(offers.isEmpty(), "the held GPUs are not offered on the other node either");
  }

  @Test
  void othersCannotReadOrCancelAReservation() {
    JsonObject quote = quote("off_osl_4090_01", 1, START.plus(5, ChronoUnit.DAYS), 2);
    String id = new JsonObject(reserve(a, aliceToken, quote.getString("id"), UUID.randomUUID().toString()).body())
        .getString("id");
    assertEquals(404, bearer(b, bobToken, "GET", "/api/v1/reservations/" + id).statusCode());
    assertEquals(404, bearer(b, bobToken, "POST", "/api/v1/reservations/" + id + "/cancel").statusCode());
    JsonArray bobs = new JsonObject(bearer(a, bobToken, "GET", "/api/v1/reservations").body()).getJsonArray("data");
    assertTrue(bobs.stream().noneMatch(r -> ((JsonObject) r).getString("id").equals(id)));
    assertEquals(200, bearer(a, aliceToken, "GET", "/api/v1/reservations/" + id).statusCode());
  }

  @Test
  void cancellingAHoldReleasesItsGpusAndCannotBeRepeated() {
    JsonObject quote = quote("off_fra_l40s_01", 8, START.plus(8, ChronoUnit.DAYS), 2);
    String id = new JsonObject(reserve(a, aliceToken, quote.getString("id"), UUID.randomUUID().toString()).body())
        .getString("id");
    HttpResponse<String> cancelled = bearer(b, aliceToken, "POST", "/api/v1/reservations/" + id + "/cancel");
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    assertEquals("cancelled", new JsonObject(cancelled.body()).getString("status"));
    assertEquals(0, a.sql("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + id + "'")
        .iterator().next().getLong(0));
    assertEquals(409, bearer(a, aliceToken, "POST", "/api/v1/reservations/" + id + "/cancel").statusCode(),
        "a cancelled reservation cannot be cancelled again");
    JsonObject again = quote("off_fra_l40s_01", 8, START.plus(8, ChronoUnit.DAYS), 2);
    assertEquals(201, reserve(b, aliceToken, again.getString("id"), UUID.randomUUID().toString()).statusCode(),
        "the released GPUs can be booked again");
  }

  @Test
  void savedSshKeysCanBeUsedForReservationsAndAreEachOwnersOwn() {
    HttpResponse<String> saved = a.send(HttpRequest.newBuilder(URI.create(a.url("/api/v1/ssh-keys")))
        .header("Authorization", "Bearer " + aliceToken).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("name", "laptop").put("public_key", SSH_KEY).encode())));
    assertEquals(201, saved.statusCode(), saved.body());
    JsonObject key = new JsonObject(saved.body());
    assertTrue(key.getString("fingerprint").startsWith("SHA256:"));
    assertEquals("ssh-ed25519", key.getString("type"));
    JsonArray listed = new JsonObject(bearer(b, aliceToken, "GET", "/api/v1/ssh-keys").body()).getJsonArray("data");
    assertTrue(listed.stream().anyMatch(k -> ((JsonObject) k).getString("id").equals(key.getString("id"))));

    JsonObject quote = quote("off_osl_4090_01", 1, START.plus(6, ChronoUnit.DAYS), 2);
    HttpResponse<String> reserved = reserveWith(a, aliceToken, UUID.randomUUID().toString(), new JsonObject()
        .put("quote_id", quote.getString("id")).put("ssh_key_id", key.getString("id")).put("payment", "checkout"));
    assertEquals(201, reserved.statusCode(), reserved.body());
    assertEquals(key.getString("fingerprint"), new JsonObject(reserved.body()).getJsonObject("ssh").getString("fingerprint"));

    assertEquals(404, bearer(a, bobToken, "DELETE", "/api/v1/ssh-keys/" + key.getString("id")).statusCode());
    JsonObject bobQuote = quoteOn(a, bobToken, "off_osl_4090_01", 1, START.plus(7, ChronoUnit.DAYS), 2);
    HttpResponse<String> stolen = reserveWith(a, bobToken, UUID.randomUUID().toString(), new JsonObject()
        .put("quote_id", bobQuote.getString("id")).put("ssh_key_id", key.getString("id")).put("payment", "checkout"));
    assertEquals(400, stolen.statusCode(), "another account's key is unknown to bob");
    assertEquals(204, bearer(a, aliceToken, "DELETE", "/api/v1/ssh-keys/" + key.getString("id")).statusCode());
  }

  @Test
  void aRetryIsReplayedEvenWhenWhatTheRequestNamedIsGone() {
    HttpResponse<String> saved = a.send(HttpRequest.newBuilder(URI.create(a.url("/api/v1/ssh-keys")))
        .header("Authorization", "Bearer " + aliceToken).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("name", "temp")
            .put("public_key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc t")
            .encode())));
    String keyId = new JsonObject(saved.body()).getString("id");
    JsonObject body = new JsonObject().put("quote_id", quote("off_osl_4090_01", 1, START.plus(11, ChronoUnit.DAYS), 2)
        .getString("id")).put("ssh_key_id", keyId).put("payment", "checkout");
    String idempotencyKey = UUID.randomUUID().toString();
    HttpResponse<String> first = reserveWith(a, aliceToken, idempotencyKey, body);
    assertEquals(201, first.statusCode(), first.body());
    assertEquals(204, bearer(a, aliceToken, "DELETE", "/api/v1/ssh-keys/" + keyId).statusCode());
    HttpResponse<String> retry = reserveWith(b, aliceToken, idempotencyKey, body);
    assertEquals(201, retry.statusCode(), "replayed although the SSH key no longer exists: " + retry.body());
    assertEquals(first.body(), retry.body());
  }

  @Test
  void aChangeMadeOnNodeAReachesAnEventStreamOnNodeB() throws Exception {
    java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> stream = client.sendAsync(
        HttpRequest.newBuilder(URI.create(b.url("/api/v1/events"))).header("Authorization", "Bearer " + aliceToken)
            .build(), HttpResponse.BodyHandlers.ofLines());
    HttpResponse<java.util.stream.Stream<String>> response = stream.get(30, java.util.concurrent.TimeUnit.SECONDS);
    assertEquals(200, response.statusCode());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
    Thread reader = new Thread(() -> response.body().forEach(lines::add));
    reader.setDaemon(true);
    reader.start();
    assertEquals(": connected", lines.poll(30, java.util.concurrent.TimeUnit.SECONDS));

    JsonObject quote = quote("off_osl_4090_01", 1, START.plus(9, ChronoUnit.DAYS), 2);
    String id = new JsonObject(reserve(a, aliceToken, quote.getString("id"), UUID.randomUUID().toString()).body())
        .getString("id");
    String data = null;
    for (int i = 0; i < 20 && data == null; i++) {
      String line = lines.poll(30, java.util.concurrent.TimeUnit.SECONDS);
      assertNotNull(line, "no event arrived on node B");
      if (line.startsWith("data: ") && line.contains(id)) {
        data = line.substring(6);
      }
    }
    assertEquals("pending_payment", new JsonObject(data).getString("status"));
  }

  @Test
  void badRequestsAreRefusedWithoutWritingAnything() {
    JsonObject quote = quote("off_nyc_h100_01", 1, START.plus(20, ChronoUnit.DAYS), 1);
    long before = a.sql("SELECT count(*) FROM reservations").iterator().next().getLong(0);
    HttpResponse<String> badKey = reserveWith(a, aliceToken, UUID.randomUUID().toString(), new JsonObject()
        .put("quote_id", quote.getString("id")).put("ssh_public_key", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC7")
        .put("payment", "checkout"));
    assertEquals(400, badKey.statusCode());
    assertTrue(badKey.body().contains("#/ssh_public_key"), badKey.body());
    HttpResponse<String> noKey = a.send(HttpRequest.newBuilder(URI.create(a.url("/api/v1/reservations")))
        .header("Authorization", "Bearer " + aliceToken).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("quote_id", quote.getString("id"))
            .put("ssh_public_key", SSH_KEY).put("payment", "checkout").encode())));
    assertEquals(400, noKey.statusCode(), "API clients must send an Idempotency-Key");
    HttpResponse<String> unknownQuote = reserveWith(a, aliceToken, UUID.randomUUID().toString(), new JsonObject()
        .put("quote_id", "quo_x.1.y").put("ssh_public_key", SSH_KEY).put("payment", "checkout"));
    assertEquals(400, unknownQuote.statusCode());
    assertEquals(before, a.sql("SELECT count(*) FROM reservations").iterator().next().getLong(0));
  }

  @Test
  void aLapsedHoldIsReleasedEvenAfterTheNodeThatMadeItIsGone() {
    List<Map<String, String>> cluster = TestGateway.twoNodeCluster();
    TestGateway maker = TestGateway.start(cluster.get(0));
    try (TestGateway survivor = TestGateway.start(cluster.get(1))) {
      String token = token(maker, "carol");
      JsonObject quote = quoteOn(maker, token, "off_osl_5090_01", 2, START.plus(1, ChronoUnit.DAYS), 1);
      String id = new JsonObject(reserve(maker, token, quote.getString("id"), UUID.randomUUID().toString()).body())
          .getString("id");
      maker.close();
      survivor.sql("UPDATE reservations SET hold_expires_at = now() - interval '1 second' WHERE id = '" + id + "'");
      Eventually.eventually("the survivor's sweeper released the hold",
          () -> survivor.sql("SELECT status FROM reservations WHERE id = '" + id + "'").iterator().next().getString(0),
          "expired"::equals);
      assertEquals(0, survivor.sql("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + id
          + "'").iterator().next().getLong(0));
    }
  }

  private static String token(String login) {
    return token(a, login);
  }

  private static String token(TestGateway node, String login) {
    WebSession browser = new WebSession();
    browser.signIn(node, "github", login);
    return new JsonObject(browser.write("POST", node.url("/api/v1/tokens"), new JsonObject().put("name", "test")
        .put("scopes", new JsonArray().add("reservations:write").add("catalog:read"))).body()).getString("token");
  }

  private static JsonObject quote(String offerId, int gpus, Instant start, int hours) {
    return quoteOn(a, aliceToken, offerId, gpus, start, hours);
  }

  private static JsonObject quoteOn(TestGateway node, String token, String offerId, int gpus, Instant start, int hours) {
    HttpResponse<String> response = node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/quotes")))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("offer_id", offerId).put("gpu_count", gpus)
            .put("start", start.toString()).put("hours", hours).encode())));
    assertEquals(201, response.statusCode(), response.body());
    return new JsonObject(response.body());
  }

  static HttpResponse<String> reserve(TestGateway node, String token, String quoteId, String key) {
    return reserveWith(node, token, key, new JsonObject().put("quote_id", quoteId).put("ssh_public_key", SSH_KEY)
        .put("payment", "checkout"));
  }

  private static HttpResponse<String> reserveWith(TestGateway node, String token, String key, JsonObject body) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/reservations")))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .header("Idempotency-Key", key).POST(HttpRequest.BodyPublishers.ofString(body.encode())));
  }

  private static HttpResponse<String> bearer(TestGateway node, String token, String method, String path) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url(path))).header("Authorization", "Bearer " + token)
        .method(method, HttpRequest.BodyPublishers.noBody()));
  }
}
