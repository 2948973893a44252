package io.gpurental.gateway.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Webhook chaos on a two-node cluster sharing one database: 200 real Stripe events, each delivered
 * three times, shuffled, some copies at once to both nodes, must have exactly one effect each and
 * end in the state a clean, in-order run would; forged or stale deliveries change nothing.
 * The sandbox's own deliveries are dropped, so only this test's deliveries reach the gateway.
 * Each test works on reservations of its own, so they pass in any order.
 */
class WebhookChaosTest {
  private static final int RESERVATIONS = 100;
  private static final int COPIES = 3;
  private static final long SEED = 20_261_001L;
  private static final String TYPES = "('checkout.session.completed', 'payment_intent.succeeded')";
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private static TestGateway node1;
  private static TestGateway node2;
  /** Reservation id → the reservation as created (pending, with its locked price). */
  private static final Map<String, JsonObject> BOOKED = new ConcurrentHashMap<>();
  private static List<StoredEvent> events;

  /** An event as the sandbox stored it, with the payment it reports and that payment's intent. */
  private record StoredEvent(String id, String type, String payload, String paymentId, String paymentIntentId) {}

  /** One planned delivery: a copy to one node, or two copies sent at once, one to each node. */
  private record Delivery(StoredEvent event, boolean toBothAtOnce) {}

  @BeforeAll
  static void start() throws Exception {
    List<Map<String, String>> cluster = TestGateway.twoNodeCluster();
    for (Map<String, String> settings : cluster) {
      // only this test's deliveries may apply events: keep the reconciler from applying them too
      settings.put("GATEWAY_STRIPE_RECONCILE_INTERVAL_SECONDS", "86400");
      settings.put("GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "100000");
    }
    node1 = TestGateway.start(cluster.get(0));
    node2 = TestGateway.start(cluster.get(1));
    // both nodes run the sandbox on the same tables: one setting silences both senders
    ApiClient.webhooks(node1, "drop");
    bookAndPay(ApiClient.signIn(node1, "chaos"));
    events = storedEvents();
    assertEquals(0L, count("SELECT count(*) FROM stripe_events"), "the sandbox delivered nothing by itself");
  }

  @AfterAll
  static void stop() {
    if (node2 != null) {
      node2.close();
    }
    if (node1 != null) {
      node1.close();
    }
  }

  @Test
  void forgedStaleOrTamperedDeliveriesAnswer400AndChangeNothing() throws Exception {
    StoredEvent event = unseenCheckoutCompletion();
    assertEquals(0L, count("SELECT count(*) FROM stripe_events WHERE id = '" + event.id() + "'"), "not yet applied");
    String before = databaseState();
    long now = Instant.now().getEpochSecond();
    String tampered = event.payload().replace("\"paid\"", "\"unpaid\"");
    assertTrue(!tampered.equals(event.payload()), "the payload has a payment_status to tamper with");
    Map<String, HttpResponse<String>> answers = new LinkedHashMap<>();
    for (TestGateway node : List.of(node1, node2)) {
      String at = node == node1 ? " (node 1)" : " (node 2)";
      answers.put("wrong secret" + at, deliver(node, event.payload(), sign("whsec_wrong", event.payload(), now)));
      answers.put("zero signature" + at, deliver(node, event.payload(), "t=" + now + ",v1=" + "0".repeat(64)));
      answers.put("stale timestamp" + at, deliver(node, event.payload(), sign(event.payload(), now - 3600)));
      answers.put("future timestamp" + at, deliver(node, event.payload(), sign(event.payload(), now + 3600)));
      answers.put("tampered payload" + at, deliver(node, tampered, sign(event.payload(), now)));
      answers.put("unsigned" + at, deliver(node, event.payload(), null));
    }
    answers.forEach((what, response) -> {
      assertEquals(400, response.statusCode(), what + ": " + response.body());
      assertTrue(response.headers().firstValue("Content-Type").orElse("").contains("problem+json"), what);
    });
    assertEquals(before, databaseState(), "no refused delivery changed the database");
  }

  @Test
  void everyEventThriceShuffledOnTwoNodesHasExactlyOneEffect() throws Exception {
    assertTrue(events.size() >= 200, "at least 200 handled events, got " + events.size());
    List<Delivery> plan = plan();
    List<String> failures = deliverAll(plan);
    assertTrue(failures.isEmpty(), failures.size() + " of " + (plan.size() + countPairs(plan))
        + " deliveries failed, e.g. " + failures.subList(0, Math.min(10, failures.size())));

    assertEquals(new TreeSet<>(events.stream().map(StoredEvent::id).toList()),
        strings("SELECT id FROM stripe_events"), "one stripe_events row per event delivered");
    assertEquals((long) events.size(), count("SELECT count(*) FROM stripe_events"));
    assertEquals(expectedState(), actualState(), "the same final state as a clean run");
    assertEquals((long) RESERVATIONS, count("SELECT count(*) FROM ledger_transactions WHERE kind = 'charge'"),
        "one charge per payment");
    assertEquals(strings("SELECT payment_intent_id FROM payments WHERE status = 'succeeded'"), strings("SELECT ref FROM ledger_transactions"
        + " WHERE kind = 'charge'"), "the charges are exactly the payments' intents");
    assertEquals(0L, count("SELECT count(*) FROM refunds"), "nothing was refunded");
    JsonObject check = ApiClient.ledgerCheck(node2);
    assertTrue(check.getBoolean("ok"), check.encodePrettily());
    assertEquals(0L, count("SELECT coalesce(sum(amount), 0) FROM ledger_entries"), "the ledger sums to zero");
    long totals = BOOKED.values().stream().mapToLong(WebhookChaosTest::total).sum();
    assertEquals(totals, count("SELECT coalesce(sum(amount), 0) FROM ledger_entries"
        + " WHERE account IN ('asset:stripe_clearing', 'expense:card_fees')"),
        "Stripe clearing holds every reservation's total once (less the card fees Stripe kept)");
    assertEquals(0L, count("SELECT count(*) FROM sandbox_stripe.deliveries WHERE status IS NOT NULL"),
        "the sandbox itself delivered nothing (mode drop)");
  }

  /** Reservations at distinct hours round-robin over the offers, each paid by Checkout (no webhook yet). */
  private static void bookAndPay(ApiClient renter) throws Exception {
    List<String> offers = new ArrayList<>();
    node1.sql("SELECT o.id FROM offers o JOIN hosts h ON h.id = o.host_id WHERE h.status = 'active'"
        + " AND 1 = ANY (o.gpu_counts) ORDER BY o.id").forEach(row -> offers.add(row.getString(0)));
    assertTrue(!offers.isEmpty(), "the demo fleet has offers");
    Instant first = Instant.now().plus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
    // the first alone: it creates the account's Stripe customer, which concurrent first requests race for
    bookAndPay(renter, offers, first, 0);
    ExecutorService workers = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int k = 1; k < RESERVATIONS; k++) {
        int i = k;
        done.add(workers.submit(() -> bookAndPay(renter, offers, first, i)));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      workers.shutdownNow();
    }
    assertEquals((long) RESERVATIONS, count("SELECT count(*) FROM reservations WHERE status = 'pending_payment'"));
    assertEquals((long) RESERVATIONS, count("SELECT count(*) FROM payments WHERE status = 'pending'"));
  }

  /**
   * Reservation {@code i}: 1 GPU for 2 hours (the cheapest offer's single hour is below Stripe's
   * minimum charge) from the 2i-th hour after {@code first}, made on one node, paid on the other.
   */
  private static void bookAndPay(ApiClient renter, List<String> offers, Instant first, int i) {
    JsonObject reservation = renter.on(i % 2 == 0 ? node1 : node2).reserve(offers.get(i % offers.size()), 1,
        first.plus(2L * i, ChronoUnit.HOURS), 2, "checkout");
    String url = reservation.getJsonObject("payment").getString("checkout_url");
    HttpResponse<String> paid = ApiClient.completeCheckout(i % 2 == 0 ? node2 : node1, ApiClient.sessionOf(url),
        "4242424242424242");
    assertEquals(200, paid.statusCode(), paid.body());
    BOOKED.put(reservation.getString("id"), reservation);
  }

  /**
   * The completion event of a checkout paid just now by a renter of its own, which no node has
   * been sent (the sandbox drops its deliveries).
   */
  private static StoredEvent unseenCheckoutCompletion() {
    String offer = node1.sql("SELECT o.id FROM offers o JOIN hosts h ON h.id = o.host_id WHERE h.status = 'active'"
        + " AND 1 = ANY (o.gpu_counts) ORDER BY o.id LIMIT 1").iterator().next().getString(0);
    JsonObject reservation = ApiClient.signIn(node1, "forger").reserve(offer, 1,
        Instant.now().plus(30, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS), 2, "checkout");
    HttpResponse<String> paid = ApiClient.completeCheckout(node2,
        ApiClient.sessionOf(reservation.getJsonObject("payment").getString("checkout_url")), "4242424242424242");
    assertEquals(200, paid.statusCode(), paid.body());
    String paymentId = reservation.getJsonObject("payment").getString("id");
    return stored("SELECT id, type, body::text FROM sandbox_stripe.events WHERE type = 'checkout.session.completed'"
        + " AND body -> 'data' -> 'object' -> 'metadata' ->> 'payment_id' = '" + paymentId + "'").get(0);
  }

  /** The handled events of the paid checkouts, each naming its payment and payment intent. */
  private static List<StoredEvent> storedEvents() {
    List<StoredEvent> stored = stored("SELECT id, type, body::text FROM sandbox_stripe.events WHERE type IN " + TYPES
        + " ORDER BY seq");
    assertEquals(2 * RESERVATIONS, stored.size(), "a completed session and a succeeded intent per checkout");
    return stored;
  }

  private static List<StoredEvent> stored(String query) {
    List<StoredEvent> stored = new ArrayList<>();
    node1.sql(query)
        .forEach(row -> {
          JsonObject object = new JsonObject(row.getString(2)).getJsonObject("data").getJsonObject("object");
          boolean session = "checkout.session.completed".equals(row.getString(1));
          stored.add(new StoredEvent(row.getString(0), row.getString(1), row.getString(2),
              object.getJsonObject("metadata").getString("payment_id"),
              session ? object.getString("payment_intent") : object.getString("id")));
        });
    return stored;
  }

  /** Every event {@link #COPIES} times, shuffled; a third of them with two copies at once to both nodes. */
  private static List<Delivery> plan() {
    List<Delivery> plan = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      StoredEvent event = events.get(i);
      int singles = COPIES;
      if (i % 3 == 0) {
        plan.add(new Delivery(event, true));
        singles -= 2;
      }
      for (int c = 0; c < singles; c++) {
        plan.add(new Delivery(event, false));
      }
    }
    Collections.shuffle(plan, new Random(SEED));
    return plan;
  }

  private static int countPairs(List<Delivery> plan) {
    return (int) plan.stream().filter(Delivery::toBothAtOnce).count();
  }

  /** Sends the plan from 16 threads, alternating nodes; returns every delivery not answered 200. */
  private static List<String> deliverAll(List<Delivery> plan) throws Exception {
    Queue<String> failures = new ConcurrentLinkedQueue<>();
    ExecutorService senders = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < plan.size(); i++) {
        Delivery delivery = plan.get(i);
        List<TestGateway> targets = delivery.toBothAtOnce() ? List.of(node1, node2)
            : List.of(i % 2 == 0 ? node1 : node2);
        done.add(senders.submit(() -> send(delivery.event(), targets, failures)));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      senders.shutdownNow();
    }
    return new ArrayList<>(failures);
  }

  /** One copy to each target, all in flight at once, each freshly signed. */
  private static void send(StoredEvent event, List<TestGateway> targets, Queue<String> failures) {
    List<CompletableFuture<Void>> inFlight = new ArrayList<>();
    for (TestGateway node : targets) {
      String where = event.id() + " (" + event.type() + ") to " + (node == node1 ? "node 1" : "node 2");
      HttpRequest request = request(node, event.payload(), sign(event.payload(), Instant.now().getEpochSecond()));
      inFlight.add(HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString())
          .thenAccept(response -> {
            if (response.statusCode() != 200) {
              failures.add(where + ": " + response.statusCode() + " " + response.body());
            }
          })
          .exceptionally(e -> {
            failures.add(where + ": " + e);
            return null;
          }));
    }
    CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
  }

  /** Per reservation, what a clean run ends in: confirmed once, paid by its intent, one balanced charge. */
  private static Map<String, String> expectedState() {
    Map<String, String> intents = new TreeMap<>();
    for (StoredEvent event : events) {
      String earlier = intents.putIfAbsent(event.paymentId(), event.paymentIntentId());
      assertTrue(earlier == null || earlier.equals(event.paymentIntentId()), "both events name one intent");
    }
    Map<String, String> expected = new TreeMap<>();
    BOOKED.forEach((id, reservation) -> {
      String paymentId = reservation.getJsonObject("payment").getString("id");
      expected.put(id, String.join(" | ", "confirmed", paymentId, "succeeded", intents.get(paymentId),
          Long.toString(total(reservation)), "confirmations=1", chargeEntries(reservation.getJsonObject("price"))));
    });
    return expected;
  }

  private static Map<String, String> actualState() {
    Map<String, String> actual = new TreeMap<>();
    node1.sql("SELECT r.id, r.status, p.id, p.status, p.payment_intent_id, p.amount,"
        + " (SELECT count(*) FROM reservation_events e WHERE e.reservation_id = r.id AND e.to_status = 'confirmed'"
        + "   AND e.from_status = 'pending_payment'),"
        + " (SELECT count(*) FROM reservation_events e WHERE e.reservation_id = r.id AND e.to_status = 'confirmed'),"
        + " (SELECT string_agg(l.account || '=' || l.amount, ',' ORDER BY l.account) FROM ledger_transactions t"
        + "   JOIN ledger_entries l ON l.transaction_id = t.id"
        + "   WHERE t.kind = 'charge' AND t.ref = p.payment_intent_id AND l.amount <> 0)"
        + " FROM reservations r JOIN payments p ON p.reservation_id = r.id"
        + " WHERE r.id IN ('" + String.join("', '", BOOKED.keySet()) + "')").forEach(row -> actual.put(row.getString(0),
        String.join(" | ", row.getString(1), row.getString(2), row.getString(3), row.getString(4),
            Long.toString(row.getLong(5)), confirmations(row), row.getString(8))));
    return actual;
  }

  private static String confirmations(Row row) {
    long fromPending = row.getLong(6);
    long all = row.getLong(7);
    return fromPending == all ? "confirmations=" + all : "confirmations=" + all + " (" + fromPending + " from pending)";
  }

  /** The charge's non-zero entries as the ledger's design says: clearing debited, revenue and tax credited. */
  private static String chargeEntries(JsonObject price) {
    long gpuHours = 0;
    long fee = 0;
    long tax = 0;
    JsonArray items = price.getJsonArray("items");
    for (int i = 0; i < items.size(); i++) {
      JsonObject item = items.getJsonObject(i);
      long amount = item.getJsonObject("amount").getLong("amount");
      switch (item.getString("kind")) {
        case "platform_fee" -> fee += amount;
        case "tax" -> tax += amount;
        default -> gpuHours += amount;
      }
    }
    Map<String, Long> entries = new TreeMap<>(Map.of("asset:stripe_clearing", price.getJsonObject("total")
        .getLong("amount"), "liability:tax", -tax, "revenue:gpu_hours", -gpuHours, "revenue:platform_fee", -fee));
    List<String> parts = new ArrayList<>();
    entries.forEach((account, amount) -> {
      if (amount != 0) {
        parts.add(account + "=" + amount);
      }
    });
    return String.join(",", parts);
  }

  private static long total(JsonObject reservation) {
    return reservation.getJsonObject("price").getJsonObject("total").getLong("amount");
  }

  /** What a refused delivery must not change. */
  private static String databaseState() {
    return String.join("\n", "stripe_events=" + count("SELECT count(*) FROM stripe_events"),
        "ledger_transactions=" + count("SELECT count(*) FROM ledger_transactions"),
        "ledger_entries=" + count("SELECT count(*) FROM ledger_entries"),
        "reservation_events=" + count("SELECT count(*) FROM reservation_events"),
        "payments=" + strings("SELECT id || ':' || status || ':' || coalesce(payment_intent_id, '-') FROM payments"),
        "reservations=" + strings("SELECT id || ':' || status FROM reservations"));
  }

  private static long count(String sql) {
    return node1.sql(sql).iterator().next().getLong(0);
  }

  private static TreeSet<String> strings(String sql) {
    TreeSet<String> values = new TreeSet<>();
    node1.sql(sql).forEach(row -> values.add(row.getString(0)));
    return values;
  }

  private static HttpResponse<String> deliver(TestGateway node, String payload, String signature) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url("/api/v1/stripe/webhook")))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(payload));
    if (signature != null) {
      request.header("Stripe-Signature", signature);
    }
    return node.send(request);
  }

  private static HttpRequest request(TestGateway node, String payload, String signature) {
    return HttpRequest.newBuilder(URI.create(node.url("/api/v1/stripe/webhook"))).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json").header("Stripe-Signature", signature)
        .POST(HttpRequest.BodyPublishers.ofString(payload)).build();
  }

  private static String sign(String payload, long timestamp) {
    return sign(node1.gateway().config().stripe().webhookSecret(), payload, timestamp);
  }

  /** Stripe's scheme: {@code t=<seconds>,v1=hex(HMAC-SHA256(secret, t + "." + payload))}. */
  private static String sign(String secret, String payload, long timestamp) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(
          mac.doFinal((timestamp + "." + payload).getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
