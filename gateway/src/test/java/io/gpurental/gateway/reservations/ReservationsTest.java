package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.TestGateway;
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
  private static ApiClient alice;
  private static ApiClient bob;

  @BeforeAll
  static void start() {
    List<Map<String, String>> cluster = TestGateway.twoNodeCluster();
    cluster.forEach(settings -> settings.put("GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "100000"));
    a = TestGateway.start(cluster.get(0));
    b = TestGateway.start(cluster.get(1));
    alice = ApiClient.signIn(a, "alice");
    bob = ApiClient.signIn(a, "bob");
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
      quoteIds.add(alice.quote("off_fra_a100_01", 1 + i % 2, START.plus(i % 3, ChronoUnit.HOURS), 4).getString("id"));
    }
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      TestGateway node = i % 2 == 0 ? a : b;
      String quoteId = quoteIds.get(i);
      calls.add(CompletableFuture.supplyAsync(() -> reserve(alice.on(node), quoteId, UUID.randomUUID().toString()), pool));
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
    String quoteId = alice.quote("off_osl_5090_01", 1, START.plus(10, ChronoUnit.DAYS), 2).getString("id");
    String key = "retry-" + UUID.randomUUID();
    ExecutorService pool = Executors.newFixedThreadPool(10);
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      TestGateway node = i % 2 == 0 ? a : b;
      calls.add(CompletableFuture.supplyAsync(() -> reserve(alice.on(node), quoteId, key), pool));
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
    HttpResponse<String> different = alice.post("/api/v1/reservations", new JsonObject().put("quote_id", quoteId)
        .put("ssh_public_key", SSH_KEY).put("payment", "saved_card"), key);
    assertEquals(422, different.statusCode(), "same key, different body");
    assertNotNull(id);
  }

  @Test
  void aHeldReservationIsLockedToTheQuotedPriceAndBlocksTheCatalog() {
    JsonObject quote = alice.quote("off_nyc_h200_01", 8, START.plus(12, ChronoUnit.DAYS), 3);
    HttpResponse<String> response = reserve(alice, quote.getString("id"), UUID.randomUUID().toString());
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
    JsonObject quote = alice.quote("off_osl_4090_01", 1, START.plus(5, ChronoUnit.DAYS), 2);
    String id = new JsonObject(reserve(alice, quote.getString("id"), UUID.randomUUID().toString()).body())
        .getString("id");
    assertEquals(404, bob.on(b).get("/api/v1/reservations/" + id).statusCode());
    assertEquals(404, bob.on(b).post("/api/v1/reservations/" + id + "/cancel", null).statusCode());
    JsonArray bobs = new JsonObject(bob.get("/api/v1/reservations").body()).getJsonArray("data");
    assertTrue(bobs.stream().noneMatch(r -> ((JsonObject) r).getString("id").equals(id)));
    assertEquals(200, alice.get("/api/v1/reservations/" + id).statusCode());
  }

  @Test
  void cancellingAHoldReleasesItsGpusAndCannotBeRepeated() {
    JsonObject quote = alice.quote("off_fra_l40s_01", 8, START.plus(8, ChronoUnit.DAYS), 2);
    String id = new JsonObject(reserve(alice, quote.getString("id"), UUID.randomUUID().toString()).body())
        .getString("id");
    HttpResponse<String> cancelled = alice.on(b).post("/api/v1/reservations/" + id + "/cancel", null);
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    assertEquals("cancelled", new JsonObject(cancelled.body()).getString("status"));
    assertEquals(0, a.sql("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + id + "'")
        .iterator().next().getLong(0));
    assertEquals(409, alice.post("/api/v1/reservations/" + id + "/cancel", null).statusCode(),
        "a cancelled reservation cannot be cancelled again");
    JsonObject again = alice.quote("off_fra_l40s_01", 8, START.plus(8, ChronoUnit.DAYS), 2);
    assertEquals(201, reserve(alice.on(b), again.getString("id"), UUID.randomUUID().toString()).statusCode(),
        "the released GPUs can be booked again");
  }

  @Test
  void savedSshKeysCanBeUsedForReservationsAndAreEachOwnersOwn() {
    HttpResponse<String> saved = alice.post("/api/v1/ssh-keys",
        new JsonObject().put("name", "laptop").put("public_key", SSH_KEY));
    assertEquals(201, saved.statusCode(), saved.body());
    JsonObject key = new JsonObject(saved.body());
    assertTrue(key.getString("fingerprint").startsWith("SHA256:"));
    assertEquals("ssh-ed25519", key.getString("type"));
    JsonArray listed = new JsonObject(alice.on(b).get("/api/v1/ssh-keys").body()).getJsonArray("data");
    assertTrue(listed.stream().anyMatch(k -> ((JsonObject) k).getString("id").equals(key.getString("id"))));

    JsonObject quote = alice.quote("off_osl_4090_01", 1, START.plus(6, ChronoUnit.DAYS), 2);
    HttpResponse<String> reserved = alice.post("/api/v1/reservations", new JsonObject()
        .put("quote_id", quote.getString("id")).put("ssh_key_id", key.getString("id")).put("payment", "checkout"));
    assertEquals(201, reserved.statusCode(), reserved.body());
    assertEquals(key.getString("fingerprint"), new JsonObject(reserved.body()).getJsonObject("ssh").getString("fingerprint"));

    assertEquals(404, bob.delete("/api/v1/ssh-keys/" + key.getString("id")).statusCode());
    JsonObject bobQuote = bob.quote("off_osl_4090_01", 1, START.plus(7, ChronoUnit.DAYS), 2);
    HttpResponse<String> stolen = bob.post("/api/v1/reservations", new JsonObject()
        .put("quote_id", bobQuote.getString("id")).put("ssh_key_id", key.getString("id")).put("payment", "checkout"));
    assertEquals(400, stolen.statusCode(), "another account's key is unknown to bob");
    assertEquals(204, alice.delete("/api/v1/ssh-keys/" + key.getString("id")).statusCode());
  }

  @Test
  void aRetryIsReplayedEvenWhenWhatTheRequestNamedIsGone() {
    HttpResponse<String> saved = alice.post("/api/v1/ssh-keys", new JsonObject().put("name", "temp")
        .put("public_key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc t"));
    String keyId = new JsonObject(saved.body()).getString("id");
    JsonObject body = new JsonObject().put("quote_id", alice.quote("off_osl_4090_01", 1, START.plus(11, ChronoUnit.DAYS), 2)
        .getString("id")).put("ssh_key_id", keyId).put("payment", "checkout");
    String idempotencyKey = UUID.randomUUID().toString();
    HttpResponse<String> first = alice.post("/api/v1/reservations", body, idempotencyKey);
    assertEquals(201, first.statusCode(), first.body());
    assertEquals(204, alice.delete("/api/v1/ssh-keys/" + keyId).statusCode());
    HttpResponse<String> retry = alice.on(b).post("/api/v1/reservations", body, idempotencyKey);
    assertEquals(201, retry.statusCode(), "replayed although the SSH key no longer exists: " + retry.body());
    assertEquals(first.body(), retry.body());
  }

  @Test
  void aChangeMadeOnNodeAReachesAnEventStreamOnNodeB() throws Exception {
    java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> stream = client.sendAsync(
        HttpRequest.newBuilder(URI.create(b.url("/api/v1/events"))).header("Authorization", "Bearer " + alice.token())
            .build(), HttpResponse.BodyHandlers.ofLines());
    HttpResponse<java.util.stream.Stream<String>> response = stream.get(30, java.util.concurrent.TimeUnit.SECONDS);
    assertEquals(200, response.statusCode());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
    Thread reader = new Thread(() -> response.body().forEach(lines::add));
    reader.setDaemon(true);
    reader.start();
    assertEquals(": connected", lines.poll(30, java.util.concurrent.TimeUnit.SECONDS));

    JsonObject quote = alice.quote("off_osl_4090_01", 1, START.plus(9, ChronoUnit.DAYS), 2);
    String id = new JsonObject(reserve(alice, quote.getString("id"), UUID.randomUUID().toString()).body())
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
    JsonObject quote = alice.quote("off_nyc_h100_01", 1, START.plus(20, ChronoUnit.DAYS), 1);
    long before = a.sql("SELECT count(*) FROM reservations").iterator().next().getLong(0);
    HttpResponse<String> badKey = alice.post("/api/v1/reservations", new JsonObject()
        .put("quote_id", quote.getString("id")).put("ssh_public_key", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC7")
        .put("payment", "checkout"));
    assertEquals(400, badKey.statusCode());
    assertTrue(badKey.body().contains("#/ssh_public_key"), badKey.body());
    HttpResponse<String> noKey = alice.post("/api/v1/reservations", new JsonObject()
        .put("quote_id", quote.getString("id")).put("ssh_public_key", SSH_KEY).put("payment", "checkout"), null);
    assertEquals(400, noKey.statusCode(), "API clients must send an Idempotency-Key");
    HttpResponse<String> unknownQuote = alice.post("/api/v1/reservations", new JsonObject()
        .put("quote_id", "quo_x.1.y").put("ssh_public_key", SSH_KEY).put("payment", "checkout"));
    assertEquals(400, unknownQuote.statusCode());
    assertEquals(before, a.sql("SELECT count(*) FROM reservations").iterator().next().getLong(0));
  }

  @Test
  void aLapsedHoldIsReleasedEvenAfterTheNodeThatMadeItIsGone() {
    List<Map<String, String>> cluster = TestGateway.twoNodeCluster();
    TestGateway maker = TestGateway.start(cluster.get(0));
    try (TestGateway survivor = TestGateway.start(cluster.get(1))) {
      ApiClient carol = ApiClient.signIn(maker, "carol");
      JsonObject quote = carol.quote("off_osl_5090_01", 2, START.plus(1, ChronoUnit.DAYS), 1);
      String id = new JsonObject(reserve(carol, quote.getString("id"), UUID.randomUUID().toString()).body())
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

  static HttpResponse<String> reserve(ApiClient renter, String quoteId, String key) {
    return renter.post("/api/v1/reservations", new JsonObject().put("quote_id", quoteId).put("ssh_public_key", SSH_KEY)
        .put("payment", "checkout"), key);
  }
}
