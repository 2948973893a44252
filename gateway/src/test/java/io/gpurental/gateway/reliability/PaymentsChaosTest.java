package io.gpurental.gateway.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Payments under chaos, on three gateway JVMs: renters book and pay by Checkout at once, a quarter
 * cancel right after paying (racing the webhook that confirms them) and a quarter get part of their
 * money back from the operator. Every webhook the Stripe sandbox sends passes a {@link WebhookRelay}
 * that delivers it three times, shuffled, to three nodes at once, and drops all webhooks of every
 * 20th payment. Halfway, one node is killed with SIGKILL. Then the killed node comes back with
 * reconciliation every second. Checked in SQL against what the sandbox (Stripe) did: the dropped
 * webhooks had left payments charged but unconfirmed; after reconciliation none is, no reservation
 * is confirmed without its charge, every refund Stripe made is recorded once and every refund
 * decided is made, and the ledger balances with Stripe clearing equal to charges less refunds.
 */
class PaymentsChaosTest {
  private static final int RESERVATIONS = Integer.getInteger("chaos.reservations", 80);
  private static final int WORKERS = 12;
  private static final int RENTERS = 4;
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private static WebhookRelay relay;
  private static GatewayCluster cluster;
  private static final List<GatewayProcess> live = new CopyOnWriteArrayList<>();
  private static final AtomicInteger cut = new AtomicInteger();
  private static final AtomicInteger cancelled = new AtomicInteger();
  private static final AtomicInteger refundedByOperator = new AtomicInteger();
  private static final AtomicInteger refundSkipped = new AtomicInteger();
  private static final AtomicInteger inFlightRefunds = new AtomicInteger();
  private static final AtomicInteger inFlightRefundsCut = new AtomicInteger();
  /** Flow number → its reservation as created, for the flows that leave it alone once paid. */
  private static final Map<Integer, JsonObject> untouched = new java.util.concurrent.ConcurrentHashMap<>();
  private static final int IN_FLIGHT_REFUNDS = 8;
  private static volatile Instant killedAt;
  /** Flow number → its reservation as created. */
  private static final Map<Integer, JsonObject> all = new java.util.concurrent.ConcurrentHashMap<>();

  @BeforeAll
  static void start() {
    relay = WebhookRelay.start(3);
    // the reconciler stays off (daily) until the killed node returns with it every second
    cluster = GatewayCluster.start(3, Map.of("GATEWAY_STRIPE_WEBHOOK_URL", relay.url(),
        "GATEWAY_STRIPE_RECONCILE_INTERVAL_SECONDS", "86400", "GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "1000000",
        "GATEWAY_RATE_LIMITS_SIGN_INS_PER_MINUTE", "100000", "GATEWAY_DB_POOL_WAIT_TIMEOUT_MS", "60000",
        "GATEWAY_DB_STATEMENT_TIMEOUT_MS", "30000"));
    relay.deliverTo(cluster.nodes());
    live.addAll(cluster.nodes());
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (relay != null) {
      relay.close();
    }
  }

  @Test
  void webhooksTripledShuffledDroppedAndANodeKilledLoseNoMoneyOnceReconciled() throws Exception {
    List<String> renters = new ArrayList<>();
    for (int i = 0; i < RENTERS; i++) {
      renters.add(RemoteSignIn.renterToken(cluster.node(i % 2), "payer" + i));
    }
    String operator = RemoteSignIn.operatorToken(cluster.node(0));
    List<String> offers = List.of(cluster.text("SELECT string_agg(o.id, ',' ORDER BY o.id) FROM offers o"
        + " JOIN hosts h ON h.id = o.host_id WHERE h.status = 'active' AND 1 = ANY (o.gpu_counts)").split(","));
    Instant first = Instant.now().plus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
    GatewayProcess victim = cluster.node(2);
    AtomicInteger done = new AtomicInteger();
    AtomicBoolean killed = new AtomicBoolean();
    CompletableFuture<Void> kill = new CompletableFuture<>();
    long started = System.nanoTime();
    ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
    try {
      List<Future<?>> flows = new ArrayList<>();
      for (int k = 0; k < RESERVATIONS; k++) {
        int i = k;
        flows.add(workers.submit(() -> {
          payFlow(i, renters.get(i % RENTERS), operator, offers.get(i % offers.size()),
              first.plus(2L * (i / offers.size()), ChronoUnit.HOURS));
          if (done.incrementAndGet() == RESERVATIONS / 2 && killed.compareAndSet(false, true)) {
            CompletableFuture.runAsync(() -> killDuringRefunds(victim, operator)).whenComplete((v, e) -> {
              if (e != null) {
                kill.completeExceptionally(e);
              } else {
                kill.complete(null);
              }
            });
          }
          return null;
        }));
      }
      for (Future<?> flow : flows) {
        flow.get(5, TimeUnit.MINUTES);
      }
    } finally {
      workers.shutdownNow();
    }
    kill.get(1, TimeUnit.MINUTES);
    long chaosMillis = (System.nanoTime() - started) / 1_000_000;
    // all webhooks out: the sandbox sent every event not claimed by the killed node, the relay settled them
    Eventually.eventually("every webhook sent and settled", Duration.ofSeconds(120),
        () -> relay.settled() && cluster.count("SELECT count(*) FROM sandbox_stripe.events WHERE delivered_at IS NULL"
            + " AND (locked_until IS NULL OR locked_until < now())") == 0, ok -> ok);
    List<String> unconfirmedBefore = PaymentsAudit.lines(cluster, PaymentsAudit.CHARGED_NOT_CONFIRMED);
    long pendingRefundsBefore = cluster.count("SELECT count(*) FROM refunds WHERE status = 'pending'");

    long standInRepairs = settleStandInRefundsCutByTheKill();
    long reconcileStarted = System.nanoTime();
    cluster.restart(2, 3, Map.of("GATEWAY_STRIPE_RECONCILE_INTERVAL_SECONDS", "1"));
    try {
      Eventually.eventually("reconciled: nothing charged and unconfirmed, no refund pending", Duration.ofSeconds(180),
          () -> PaymentsAudit.lines(cluster, PaymentsAudit.CHARGED_NOT_CONFIRMED).size()
              + cluster.count("SELECT count(*) FROM refunds WHERE status = 'pending'"), left -> left == 0);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; charged and unconfirmed: "
          + PaymentsAudit.lines(cluster, PaymentsAudit.CHARGED_NOT_CONFIRMED) + "; refunds not done: "
          + PaymentsAudit.lines(cluster, PaymentsAudit.REFUNDS_NOT_DONE) + "\n" + cluster.node(2).logTail(), e);
    }
    long reconcileMillis = (System.nanoTime() - reconcileStarted) / 1_000_000;

    long charged = cluster.count("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'payment_intent'"
        + " AND data ->> 'status' = 'succeeded'");
    long stripeRefunds = cluster.count("SELECT count(*) FROM sandbox_stripe.objects WHERE type = 'refund'");
    long repaired = cluster.count("SELECT coalesce(sum(events_applied), 0) FROM reconciler_runs");
    String refundReasons = cluster.text("SELECT string_agg(reason || ' ' || n, ', ') FROM (SELECT reason, count(*) AS n"
        + " FROM refunds GROUP BY reason ORDER BY reason) r");
    System.out.printf("Payments under chaos: %d reservations paid by %d renters in %d ms (%d cancelled at once,"
            + " %d partly refunded by the operator, %d not confirmed in time for it), %d requests cut by the kill;"
            + " %d operator refunds in flight on the killed node, %d of them cut and retried elsewhere;"
            + " webhooks: %d events, %d dropped (%d payments), %d copies sent, answers %s, %d cut;"
            + " before reconciliation %d charged but unconfirmed, %d refunds pending (%d stand-in refund requests"
            + " cut mid-way settled); reconciled in %d ms"
            + " (%d events applied); %d charges and %d refunds at Stripe (%s)%n", RESERVATIONS, RENTERS, chaosMillis,
        cancelled.get(), refundedByOperator.get(), refundSkipped.get(), cut.get(),
        inFlightRefunds.get(), inFlightRefundsCut.get(), relay.received.size(),
        relay.droppedEvents.size(), relay.droppedPayments.size(), relay.copiesSent.get(), relay.answers,
        relay.copiesCut.get(), unconfirmedBefore.size(), pendingRefundsBefore, standInRepairs, reconcileMillis, repaired, charged,
        stripeRefunds, refundReasons);

    assertTrue(!relay.droppedPayments.isEmpty() && unconfirmedBefore.size() >= relay.droppedPayments.size(),
        "each payment whose webhooks were dropped was charged and unconfirmed before reconciliation: dropped "
            + relay.droppedPayments + ", unconfirmed " + unconfirmedBefore);
    assertTrue(repaired >= relay.droppedPayments.size(), "reconciliation applied the missed events: " + repaired);
    assertEquals(RESERVATIONS, charged, "every reservation was charged once at Stripe");
    for (String check : List.of(PaymentsAudit.CHARGED_NOT_CONFIRMED, PaymentsAudit.CONFIRMED_NOT_PAID,
        PaymentsAudit.PAID_STILL_PENDING, PaymentsAudit.REFUNDED_NOT_RECORDED, PaymentsAudit.REFUNDS_NOT_DONE,
        PaymentsAudit.REFUNDED_TWICE, PaymentsAudit.REFUNDED_AMOUNT_DIFFERS, PaymentsAudit.CANCELLED_NOT_REFUNDED,
        PaymentsAudit.LEDGER_PROBLEMS, PaymentsAudit.DOUBLE_EFFECTS, PaymentsAudit.CLEARING_DIFFERS)) {
      assertEquals(List.of(), PaymentsAudit.lines(cluster, check), check);
    }
    assertEquals(RESERVATIONS, cluster.count("SELECT count(*) FROM ledger_transactions WHERE kind = 'charge'"),
        "one ledger charge per Stripe charge, none from a duplicate webhook");
    assertEquals(stripeRefunds, cluster.count("SELECT count(*) FROM ledger_transactions WHERE kind = 'refund'"),
        "one ledger refund per Stripe refund");
    assertTrue(cancelled.get() > 0 && refundedByOperator.get() > 0 && stripeRefunds > 0, "refunds were exercised");
    assertTrue(inFlightRefunds.get() > 0, "refunds were in flight on the killed node");
    assertTrue(relay.unexpectedAnswers.isEmpty(), "every copy a live node answered was 200: "
        + relay.unexpectedAnswers.stream().limit(5).toList());
  }

  /**
   * Reservation {@code i}: booked on a live node (retried on another with the same key when the
   * kill cuts it), paid at the sandbox's checkout on a node that is never killed; then maybe
   * cancelled at once, or partly refunded by the operator once confirmed.
   */
  private static void payFlow(int i, String renter, String operator, String offer, Instant start) {
    JsonObject reservation = expect(201, call(i, "POST", "/api/v1/reservations", renter, "chaos-reserve-" + i,
        ApiClient.reservationRequest(offer, 1, start, 2, "checkout")));
    String id = reservation.getString("id");
    all.put(i, reservation);
    String session = ApiClient.sessionOf(reservation.getJsonObject("payment").getString("checkout_url"));
    completeCheckout(cluster.node(i % 2), session);
    if (i % 2 == 0) {
      untouched.put(i, reservation);
    }
    if (i % 4 == 1) {
      HttpResponse<String> answer = call(i, "POST", "/api/v1/reservations/" + id + "/cancel", renter,
          "chaos-cancel-" + i, null);
      // 409: a cut first attempt had cancelled it already
      assertTrue(answer.statusCode() == 200 || answer.statusCode() == 409, id + " cancel: " + answer.body());
      cancelled.incrementAndGet();
    } else if (i % 4 == 3) {
      String paymentId = reservation.getJsonObject("payment").getString("id");
      if (!confirmedSoon(i, renter, id, reservation.getJsonObject("payment").getString("id"))) {
        refundSkipped.incrementAndGet();
        return;
      }
      long total = reservation.getJsonObject("price").getJsonObject("total").getLong("amount");
      expect(201, call(i, "POST", "/api/v1/operator/reservations/" + id + "/refunds", operator, "chaos-refund-" + i,
          new JsonObject().put("amount", total / 3).put("currency", "usd").put("kind", "refund")
              .put("reason", "Chaos test: part of the hours given back")));
      refundedByOperator.incrementAndGet();
    }
  }

  /**
   * The kill, timed to hit money in flight: operator refunds of confirmed reservations are sent
   * to the victim all at once, and it is killed as soon as the first is decided, so they
   * die between their decision, Stripe's refund and its record. Each cut one is retried on a
   * survivor with the same Idempotency-Key, as an operator's client would.
   */
  private static void killDuringRefunds(GatewayProcess victim, String operator) {
    List<Integer> targets = untouched.entrySet().stream()
        .filter(e -> "confirmed".equals(cluster.text("SELECT status FROM reservations WHERE id = '"
            + e.getValue().getString("id") + "'")))
        .map(Map.Entry::getKey).limit(IN_FLIGHT_REFUNDS).toList();
    List<CompletableFuture<HttpResponse<String>>> refunds = new ArrayList<>();
    for (int i : targets) {
      untouched.remove(i);
      refunds.add(HTTP.sendAsync(operatorRefund(victim, operator, i).build(), HttpResponse.BodyHandlers.ofString()));
    }
    inFlightRefunds.addAndGet(refunds.size());
    String ids = String.join("', '", targets.stream().map(PaymentsChaosTest::reservationOf).toList());
    Eventually.eventually("the first refund in flight decided", Duration.ofSeconds(60), () -> cluster.count(
        "SELECT count(*) FROM refunds f JOIN payments p ON p.id = f.payment_id WHERE f.reason = 'operator'"
            + " AND p.reservation_id IN ('" + ids + "')"), decided -> targets.isEmpty() || decided > 0);
    live.remove(victim);
    killedAt = Instant.now();
    victim.kill();
    for (int k = 0; k < refunds.size(); k++) {
      int i = targets.get(k);
      HttpResponse<String> answer = refunds.get(k).handle((response, cut) -> response).join();
      if (answer == null) {
        inFlightRefundsCut.incrementAndGet();
        expect(201, call(i, "POST", "/api/v1/operator/reservations/" + reservationOf(i) + "/refunds", operator,
            "chaos-in-flight-" + i, refundBody(i)));
      } else {
        expect(201, answer);
      }
    }
  }

  /**
   * The Stripe stand-in runs inside each node, so the kill also cuts its own requests mid-way,
   * which real Stripe (elsewhere, and atomic per request) never suffers: a refund request it had
   * begun would leave its idempotency key "in progress" for ever. Settled here as Stripe would
   * have: one that created no refund never happened; one that did answers that refund.
   */
  private static long settleStandInRefundsCutByTheKill() {
    String cutKeys = "FROM sandbox_stripe.idempotency_keys k WHERE k.status = 0 AND k.key LIKE 'refund-%'"
        + " AND k.created_at <= '" + killedAt + "'";
    String refundOfKey = "sandbox_stripe.objects o WHERE o.type = 'refund'"
        + " AND o.data -> 'metadata' ->> 'refund_id' = substr(k.key, length('refund-') + 1)";
    long cutRequests = cluster.count("SELECT count(*) " + cutKeys);
    cluster.execute("UPDATE sandbox_stripe.idempotency_keys k SET status = 200, body = (SELECT (o.data - '_sandbox')::text"
        + " FROM " + refundOfKey + ") " + cutKeys.substring(cutKeys.indexOf("WHERE")) + " AND EXISTS (SELECT 1 FROM "
        + refundOfKey + ")");
    cluster.execute("DELETE " + cutKeys + " AND NOT EXISTS (SELECT 1 FROM " + refundOfKey + ")");
    return cutRequests;
  }

  private static String reservationOf(int i) {
    return all.get(i).getString("id");
  }

  private static HttpRequest.Builder operatorRefund(GatewayProcess node, String operator, int i) {
    return HttpRequest.newBuilder(URI.create(node.url("/api/v1/operator/reservations/" + reservationOf(i)
            + "/refunds"))).timeout(Duration.ofSeconds(90))
        .header("Authorization", "Bearer " + operator).header("Content-Type", "application/json")
        .header("Idempotency-Key", "chaos-in-flight-" + i)
        .POST(HttpRequest.BodyPublishers.ofString(refundBody(i).encode()));
  }

  /** A quarter of what reservation {@code i} cost. */
  private static JsonObject refundBody(int i) {
    long total = all.get(i).getJsonObject("price").getJsonObject("total").getLong("amount");
    return new JsonObject().put("amount", total / 4).put("currency", "usd").put("kind", "refund")
        .put("reason", "Chaos test: refunded while its node was killed");
  }

  /**
   * Polls the reservation for 30 s at most: false when its webhooks were dropped, or are still
   * held by the killed node's sandbox (Stripe would retry them later; reconciliation repairs them).
   */
  private static boolean confirmedSoon(int i, String renter, String id, String paymentId) {
    try {
      return "confirmed".equals(Eventually.eventually(id + " confirmed, or its webhooks dropped",
          Duration.ofSeconds(30), () -> relay.droppedPayments.contains(paymentId) ? "dropped"
              : expect(200, call(i, "GET", "/api/v1/reservations/" + id, renter, null, null)).getString("status"),
          status -> "confirmed".equals(status) || "dropped".equals(status)));
    } catch (AssertionError notInTime) {
      return false;
    }
  }

  /** One request to a live node, repeated on the next live node (same key) when a dying node cuts it. */
  private static HttpResponse<String> call(int i, String method, String path, String token, String key,
      JsonObject body) {
    for (int attempt = 0; ; attempt++) {
      List<GatewayProcess> nodes = List.copyOf(live);
      GatewayProcess node = nodes.get((i + attempt) % nodes.size());
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url(path))).timeout(Duration.ofSeconds(90))
          .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
          .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofString(body.encode()));
      if (key != null) {
        request.header("Idempotency-Key", key);
      }
      try {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      } catch (IOException e) {
        if (attempt >= 3 || node.isAlive() && live.contains(node)) {
          throw new AssertionError(method + " " + path + " on " + node.name() + ": " + e, e);
        }
        cut.incrementAndGet();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** The sandbox's hosted checkout, paid with a card that succeeds (as Stripe's page, on a node never killed). */
  private static void completeCheckout(GatewayProcess node, String session) {
    try {
      HttpResponse<String> paid = HTTP.send(HttpRequest.newBuilder(URI.create(node.url(
              "/sandbox/stripe/_test/checkout/sessions/" + session + "/complete"))).timeout(Duration.ofSeconds(90))
          .header("Authorization", "Bearer " + cluster.faultControlKey())
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString("card=4242424242424242")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, paid.statusCode(), paid.body());
    } catch (IOException e) {
      throw new AssertionError("checkout " + session + " on " + node.name() + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonObject expect(int status, HttpResponse<String> response) {
    if (response.statusCode() != status) {
      throw new AssertionError(response.request().method() + " " + response.uri() + ": expected " + status + ", got "
          + response.statusCode() + ": " + response.body());
    }
    return response.body().isEmpty() ? new JsonObject() : new JsonObject(response.body());
  }
}
