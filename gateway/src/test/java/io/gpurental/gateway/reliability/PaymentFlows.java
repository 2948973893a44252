package io.gpurental.gateway.reliability;

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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Renters paying on a {@link GatewayCluster} while one node dies. Flow {@code i} books one GPU for
 * two hours on a live node, pays at the sandbox's Checkout on node 1 or 2 (standing for Stripe's
 * page, never killed), then: {@code i % 4 == 1} cancels at once (racing the webhook that confirms
 * it), {@code i % 4 == 3} is partly refunded by the operator once confirmed. When half the flows
 * are done, operator refunds are sent to the victim and it is killed as soon as the first is
 * decided. A request the kill cuts is sent again to a live node with the same Idempotency-Key.
 */
final class PaymentFlows {
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private static final int IN_FLIGHT_REFUNDS = 8;
  private final GatewayCluster cluster;
  private final WebhookRelay relay;
  private final String operator;
  private final List<GatewayProcess> live;
  /** Flow number → its reservation as created. */
  private final Map<Integer, JsonObject> reservations = new ConcurrentHashMap<>();
  /** Flows that leave their reservation alone once paid: the refunds in flight at the kill take from these. */
  private final Map<Integer, JsonObject> untouched = new ConcurrentHashMap<>();
  final AtomicInteger cut = new AtomicInteger();
  final AtomicInteger refused = new AtomicInteger();
  final AtomicInteger cancelled = new AtomicInteger();
  final AtomicInteger refundedByOperator = new AtomicInteger();
  final AtomicInteger refundSkipped = new AtomicInteger();
  final AtomicInteger inFlightRefunds = new AtomicInteger();
  final AtomicInteger inFlightRefundsCut = new AtomicInteger();
  volatile long millis;

  PaymentFlows(GatewayCluster cluster, WebhookRelay relay, String operator) {
    this.cluster = cluster;
    this.relay = relay;
    this.operator = operator;
    this.live = new CopyOnWriteArrayList<>(cluster.nodes());
  }

  /** Runs {@code count} flows, {@code workers} at once, over the offers from {@code first}; kills {@code victim} halfway. */
  void run(int count, int workers, List<String> renters, List<String> offers, Instant first, GatewayProcess victim)
      throws Exception {
    AtomicInteger done = new AtomicInteger();
    CompletableFuture<Void> kill = new CompletableFuture<>();
    long started = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    try {
      List<Future<?>> flows = new ArrayList<>();
      for (int k = 0; k < count; k++) {
        int i = k;
        flows.add(pool.submit(() -> {
          payFlow(i, renters.get(i % renters.size()), offers.get(i % offers.size()),
              first.plus(2L * (i / offers.size()), ChronoUnit.HOURS));
          if (done.incrementAndGet() == count / 2) {
            // off the flows' threads: the kill waits for the refunds it cuts to be retried
            CompletableFuture.runAsync(() -> killDuringRefunds(victim)).whenComplete((v, e) -> {
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
      pool.shutdownNow();
    }
    kill.get(2, TimeUnit.MINUTES);
    millis = (System.nanoTime() - started) / 1_000_000;
  }

  private void payFlow(int i, String renter, String offer, Instant start) {
    HttpResponse<String> booked = call(i, "POST", "/api/v1/reservations", renter, "chaos-reserve-" + i,
        ApiClient.reservationRequest(offer, 1, start, 2, "checkout"));
    if (booked.statusCode() == 409) {
      // no capacity (e.g. a demo host offline while its agent moves off the killed node): nothing to pay
      refused.incrementAndGet();
      return;
    }
    JsonObject reservation = expect(201, booked);
    String id = reservation.getString("id");
    reservations.put(i, reservation);
    completeCheckout(cluster.node(i % 2), ApiClient.sessionOf(reservation.getJsonObject("payment")
        .getString("checkout_url")));
    if (i % 2 == 0) {
      untouched.put(i, reservation);
    } else if (i % 4 == 1) {
      HttpResponse<String> answer = call(i, "POST", "/api/v1/reservations/" + id + "/cancel", renter,
          "chaos-cancel-" + i, null);
      // 409: a first attempt the kill cut had cancelled it already
      if (answer.statusCode() != 200 && answer.statusCode() != 409) {
        throw new AssertionError(id + " cancel: " + answer.statusCode() + " " + answer.body());
      }
      cancelled.incrementAndGet();
    } else if (confirmedSoon(i, renter, id, reservation.getJsonObject("payment").getString("id"))) {
      expect(201, call(i, "POST", "/api/v1/operator/reservations/" + id + "/refunds", operator, "chaos-refund-" + i,
          refund(i, 3, "Chaos test: part of the hours given back")));
      refundedByOperator.incrementAndGet();
    } else {
      refundSkipped.incrementAndGet();
    }
  }

  /**
   * The kill, timed to hit money in flight: operator refunds of confirmed reservations are sent
   * to the victim at once, and it is killed as soon as the first is decided, so they die between
   * their decision, Stripe's refund and its record. Each cut one is sent again to a survivor with
   * the same Idempotency-Key, as an operator's client would.
   */
  private void killDuringRefunds(GatewayProcess victim) {
    List<Integer> targets = untouched.entrySet().stream()
        .filter(e -> "confirmed".equals(cluster.text("SELECT status FROM reservations WHERE id = '"
            + e.getValue().getString("id") + "'")))
        .map(Map.Entry::getKey).limit(IN_FLIGHT_REFUNDS).toList();
    List<CompletableFuture<HttpResponse<String>>> refunds = new ArrayList<>();
    for (int i : targets) {
      untouched.remove(i);
      refunds.add(HTTP.sendAsync(request(victim, "POST", refundPath(i), operator, "chaos-in-flight-" + i,
          refund(i, 4, "Chaos test: refunded while its node was killed")).build(), HttpResponse.BodyHandlers.ofString()));
    }
    inFlightRefunds.addAndGet(refunds.size());
    String ids = String.join("', '", targets.stream().map(i -> reservations.get(i).getString("id")).toList());
    Eventually.eventually("the first refund in flight decided", Duration.ofSeconds(60), () -> cluster.count(
        "SELECT count(*) FROM refunds f JOIN payments p ON p.id = f.payment_id WHERE f.reason = 'operator'"
            + " AND p.reservation_id IN ('" + ids + "')"), decided -> targets.isEmpty() || decided > 0);
    live.remove(victim);
    victim.kill();
    for (int k = 0; k < refunds.size(); k++) {
      int i = targets.get(k);
      HttpResponse<String> answer = refunds.get(k).handle((response, failure) -> response).join();
      if (answer == null) {
        inFlightRefundsCut.incrementAndGet();
        answer = call(i, "POST", refundPath(i), operator, "chaos-in-flight-" + i,
            refund(i, 4, "Chaos test: refunded while its node was killed"));
      }
      expect(201, answer);
    }
  }

  private String refundPath(int i) {
    return "/api/v1/operator/reservations/" + reservations.get(i).getString("id") + "/refunds";
  }

  /** An operator's refund of 1/{@code part} of what reservation {@code i} cost. */
  private JsonObject refund(int i, int part, String reason) {
    long total = reservations.get(i).getJsonObject("price").getJsonObject("total").getLong("amount");
    return new JsonObject().put("amount", total / part).put("currency", "usd").put("kind", "refund")
        .put("reason", reason);
  }

  /**
   * Polls the reservation for 30 s at most: false when its webhooks were dropped, or are still
   * held by the killed node's sandbox (Stripe would retry them later; reconciliation repairs them).
   */
  private boolean confirmedSoon(int i, String renter, String id, String paymentId) {
    try {
      return "confirmed".equals(Eventually.eventually(id + " confirmed, or its webhooks dropped",
          Duration.ofSeconds(30), () -> relay.droppedPayments.contains(paymentId) ? "dropped"
              : expect(200, call(i, "GET", "/api/v1/reservations/" + id, renter, null, null)).getString("status"),
          status -> "confirmed".equals(status) || "dropped".equals(status)));
    } catch (AssertionError notInTime) {
      return false;
    }
  }

  /** One request to a live node, sent again to the next live node (same key) when a dying node cuts it. */
  private HttpResponse<String> call(int i, String method, String path, String token, String key, JsonObject body) {
    for (int attempt = 0; ; attempt++) {
      List<GatewayProcess> nodes = List.copyOf(live);
      GatewayProcess node = nodes.get((i + attempt) % nodes.size());
      try {
        return HTTP.send(request(node, method, path, token, key, body).build(), HttpResponse.BodyHandlers.ofString());
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

  private static HttpRequest.Builder request(GatewayProcess node, String method, String path, String token,
      String key, JsonObject body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url(path))).timeout(Duration.ofSeconds(90))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body.encode()));
    return key == null ? request : request.header("Idempotency-Key", key);
  }

  /** The sandbox's hosted checkout, paid with a card that succeeds. */
  private void completeCheckout(GatewayProcess node, String session) {
    try {
      expect(200, HTTP.send(HttpRequest.newBuilder(URI.create(node.url(
              "/sandbox/stripe/_test/checkout/sessions/" + session + "/complete"))).timeout(Duration.ofSeconds(90))
          .header("Authorization", "Bearer " + cluster.faultControlKey())
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString("card=4242424242424242")).build(),
          HttpResponse.BodyHandlers.ofString()));
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

  /** How many reservations were made (and paid). */
  int booked() {
    return reservations.size();
  }

  String summary(int count, int renters) {
    return String.format("%d flows by %d renters in %d ms: %d booked and paid, %d refused (409), %d cancelled at"
        + " once, %d partly refunded by"
        + " the operator (%d not confirmed in time for it); %d requests cut by the kill and sent again; %d operator"
        + " refunds in flight on the killed node, %d of them cut and sent again to another", count, renters, millis,
        booked(), refused.get(), cancelled.get(), refundedByOperator.get(), refundSkipped.get(), cut.get(), inFlightRefunds.get(),
        inFlightRefundsCut.get());
  }
}
