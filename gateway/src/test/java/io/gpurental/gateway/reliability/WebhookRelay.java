package io.gpurental.gateway.reliability;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hostile network between the Stripe sandbox and the gateway nodes: the sandbox's webhook URL
 * points here. Each webhook is acknowledged to the sandbox at once (so it never retries), then
 * either dropped, when its subject (the payment it reports, else the event) is every
 * {@link #DROP_EVERY}th one seen (5 %: all webhooks of that payment are lost), or sent
 * {@code copies} times, byte for byte with its {@code Stripe-Signature}, one copy to each of
 * different nodes at once, in an order shuffled with whatever else arrived meanwhile.
 */
final class WebhookRelay implements AutoCloseable {
  static final int DROP_EVERY = 20;
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  private record Received(String eventId, String payload, String signature) {}

  private final HttpServer server;
  private final ExecutorService acceptors = Executors.newFixedThreadPool(4);
  private final Thread dispatcher;
  private final BlockingQueue<Received> incoming = new LinkedBlockingQueue<>();
  private final Random random = new Random(20_261_202L);
  private final int copies;
  private volatile List<GatewayProcess> nodes = List.of();
  private final Map<String, Boolean> dropBySubject = new ConcurrentHashMap<>();
  private final AtomicInteger subjects = new AtomicInteger();
  /** Webhooks received and not yet answered by every node they were copied to. */
  private final AtomicInteger unsettled = new AtomicInteger();
  final Set<String> received = ConcurrentHashMap.newKeySet();
  final Set<String> droppedEvents = ConcurrentHashMap.newKeySet();
  final Set<String> droppedPayments = ConcurrentHashMap.newKeySet();
  final AtomicInteger copiesSent = new AtomicInteger();
  final AtomicInteger copiesCut = new AtomicInteger();
  /** HTTP status → copies answered with it. */
  final Map<Integer, AtomicInteger> answers = new ConcurrentHashMap<>();
  final Set<String> unexpectedAnswers = ConcurrentHashMap.newKeySet();

  private WebhookRelay(HttpServer server, int copies) {
    this.server = server;
    this.copies = copies;
    this.dispatcher = new Thread(this::dispatch, "webhook-relay");
    this.dispatcher.setDaemon(true);
  }

  static WebhookRelay start(int copies) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
      WebhookRelay relay = new WebhookRelay(server, copies);
      server.createContext("/webhook", relay::accept);
      server.setExecutor(relay.acceptors);
      server.start();
      relay.dispatcher.start();
      return relay;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the webhook relay", e);
    }
  }

  /** The URL to give the sandbox as {@code stripe.webhook_url}. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/webhook";
  }

  /** The nodes copies go to (a node that is down cuts its copy, as it would for Stripe). */
  void deliverTo(List<GatewayProcess> targets) {
    this.nodes = List.copyOf(targets);
  }

  /** True when every webhook received so far has been dropped or answered (or cut) by each node it went to. */
  boolean settled() {
    return unsettled.get() == 0 && incoming.isEmpty();
  }

  private void accept(HttpExchange exchange) throws IOException {
    try (exchange) {
      String payload = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String signature = exchange.getRequestHeaders().getFirst("Stripe-Signature");
      JsonObject event = new JsonObject(payload);
      String eventId = event.getString("id");
      if (received.add(eventId)) {
        unsettled.incrementAndGet();
        incoming.add(new Received(eventId, payload, signature));
      }
      byte[] answer = "{\"received\": true}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, answer.length);
      exchange.getResponseBody().write(answer);
    }
  }

  /** Takes what arrived, shuffles all copies of it together, and sends each copy at once. */
  private void dispatch() {
    while (!Thread.currentThread().isInterrupted()) {
      List<Received> batch = new ArrayList<>();
      try {
        batch.add(incoming.take());
      } catch (InterruptedException e) {
        return;
      }
      incoming.drainTo(batch);
      List<Runnable> sends = new ArrayList<>();
      for (Received webhook : batch) {
        if (dropped(webhook)) {
          droppedEvents.add(webhook.eventId());
          unsettled.decrementAndGet();
          continue;
        }
        List<GatewayProcess> targets = new ArrayList<>(nodes);
        Collections.shuffle(targets, random);
        AtomicInteger left = new AtomicInteger(Math.min(copies, targets.size()));
        for (GatewayProcess node : targets.subList(0, left.get())) {
          sends.add(() -> send(webhook, node).whenComplete((v, e) -> {
            if (left.decrementAndGet() == 0) {
              unsettled.decrementAndGet();
            }
          }));
        }
      }
      Collections.shuffle(sends, random);
      sends.forEach(Runnable::run);
    }
  }

  /** The first sight of a subject decides for all its webhooks. */
  private boolean dropped(Received webhook) {
    JsonObject object = new JsonObject(webhook.payload()).getJsonObject("data", new JsonObject())
        .getJsonObject("object", new JsonObject());
    JsonObject metadata = object.getJsonObject("metadata", new JsonObject());
    String payment = metadata.getString("payment_id");
    String subject = payment != null ? payment : webhook.eventId();
    boolean drop = dropBySubject.computeIfAbsent(subject, s -> subjects.incrementAndGet() % DROP_EVERY == DROP_EVERY / 2);
    if (drop && payment != null) {
      droppedPayments.add(payment);
    }
    return drop;
  }

  private CompletableFuture<Void> send(Received webhook, GatewayProcess node) {
    copiesSent.incrementAndGet();
    HttpRequest request = HttpRequest.newBuilder(URI.create(node.url("/api/v1/stripe/webhook")))
        .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json; charset=utf-8")
        .header("Stripe-Signature", webhook.signature())
        .POST(HttpRequest.BodyPublishers.ofString(webhook.payload())).build();
    return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString()).handle((response, failure) -> {
      if (failure != null) {
        copiesCut.incrementAndGet();
      } else {
        answers.computeIfAbsent(response.statusCode(), s -> new AtomicInteger()).incrementAndGet();
        // 503: the database was too slow for it (a machine this loaded); Stripe would send it again
        if (response.statusCode() != 200 && response.statusCode() != 503) {
          unexpectedAnswers.add(node.name() + " " + webhook.eventId() + ": " + response.statusCode() + " "
              + response.body());
        }
      }
      return null;
    });
  }

  @Override
  public void close() {
    dispatcher.interrupt();
    server.stop(0);
    acceptors.shutdownNow();
  }
}
