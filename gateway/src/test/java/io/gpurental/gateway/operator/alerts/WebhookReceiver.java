package io.gpurental.gateway.operator.alerts;

import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A webhook endpoint as an operator would run one: a real HTTP server that verifies the
 * {@code Gateway-Signature} header the way docs/operating.md "Alerts" tells (HMAC-SHA256 of "t.body", constant
 * time compare, at most 5 minutes old) and keeps the verified notifications. For targets it is told
 * to be flaky for, it answers 500 to the first two requests of each opened notification.
 */
final class WebhookReceiver implements AutoCloseable {
  private final Vertx vertx = Vertx.vertx();
  private final String secret;
  private final HttpServer server;
  private final List<JsonObject> verified = new CopyOnWriteArrayList<>();
  private final AtomicInteger rejected = new AtomicInteger();
  private final Set<String> flakyTargets = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

  WebhookReceiver(String secret) {
    this.secret = secret;
    this.server = TestGateway.await(vertx.createHttpServer().requestHandler(request -> request.body()
        .onSuccess(body -> {
          String raw = body.toString(StandardCharsets.UTF_8);
          if (!valid(request.getHeader("Gateway-Signature"), raw)) {
            rejected.incrementAndGet();
            request.response().setStatusCode(400).end("bad signature");
            return;
          }
          JsonObject notification = new JsonObject(raw);
          int seen = requests.computeIfAbsent(notification.getString("id"), t -> new AtomicInteger()).incrementAndGet();
          if (flakyTargets.contains(notification.getString("target")) && "opened".equals(notification.getString("status"))
              && seen <= 2) {
            request.response().setStatusCode(500).end("try again");
            return;
          }
          verified.add(notification);
          request.response().setStatusCode(204).end();
        })).listen(0, "127.0.0.1"));
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort() + "/alerts";
  }

  void flakyFor(String target) {
    flakyTargets.add(target);
  }

  /** The requests (verified, whatever the answer) for one notification: {@code <incident id>.<opened|resolved>}. */
  int requestsFor(String notificationId) {
    return requests.getOrDefault(notificationId, new AtomicInteger()).get();
  }

  /** The verified notifications about one incident. */
  List<JsonObject> about(String incidentId) {
    return verified.stream().filter(n -> incidentId.equals(n.getString("incident_id"))).toList();
  }

  int rejected() {
    return rejected.get();
  }

  private boolean valid(String header, String body) {
    if (header == null) {
      return false;
    }
    String t = null;
    String v1 = null;
    for (String part : header.split(",")) {
      String[] kv = part.split("=", 2);
      if (kv.length == 2 && kv[0].equals("t")) {
        t = kv[1];
      } else if (kv.length == 2 && kv[0].equals("v1")) {
        v1 = kv[1];
      }
    }
    if (t == null || v1 == null || Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(t)) > 300) {
      return false;
    }
    return MessageDigest.isEqual(hmac(t + "." + body).getBytes(StandardCharsets.UTF_8),
        v1.getBytes(StandardCharsets.UTF_8));
  }

  private String hmac(String signed) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return java.util.HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    TestGateway.await(vertx.close());
  }
}
