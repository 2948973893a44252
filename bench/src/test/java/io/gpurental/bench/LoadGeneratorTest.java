package io.gpurental.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The harness itself, in well under a second: loopback only, stops by itself, counts non-2xx. */
class LoadGeneratorTest {
  @Test
  void refusesTargetsOtherThanLoopback() {
    Vertx vertx = Vertx.vertx();
    try {
      for (String target : new String[] {"http://10.0.0.1:8080", "http://example.com:80", "https://127.0.0.1:8443",
          "http://localhost:8080"}) {
        assertThrows(IllegalArgumentException.class, () -> new LoadGenerator(vertx, URI.create(target)), target);
      }
    } finally {
      vertx.close().await();
    }
  }

  /**
   * No warm-up: every request the server saw is recorded, each 500 as an error, whatever the
   * machine's speed (a busy machine may manage only a handful; each virtual client sends at least
   * its first request, which starts with the run).
   */
  @Test
  void stopsByItselfAndCountsNon2xxAsErrors() {
    Vertx vertx = Vertx.vertx();
    AtomicLong served = new AtomicLong();
    try {
      HttpServer server = alternating(vertx, served);
      LoadGenerator load = new LoadGenerator(vertx, URI.create("http://127.0.0.1:" + server.actualPort()));
      Result result = load.run(Scenarios.health(), 4, Duration.ZERO, Duration.ofMillis(300)).await();
      long sent = served.get();
      assertTrue(result.requests() >= 1, "requests: " + result.requests());
      assertEquals(sent, result.requests(), "every request sent in the measured window is recorded");
      assertEquals((sent + 1) / 2, result.errors(), "the odd ones answered 500");
      assertTrue(result.firstError().startsWith("HTTP 500"), result.firstError());
      assertEquals(result.requests(), result.latencyMicros().getTotalCount());
      assertTrue(result.seconds() > 0, "seconds: " + result.seconds());
      assertEquals(sent, served.get(), "nothing is sent once the run has stopped");
    } finally {
      vertx.close().await();
    }
  }

  /** A warm-up: the first request of every client starts in it and is not recorded. */
  @Test
  void doesNotRecordTheWarmUp() {
    Vertx vertx = Vertx.vertx();
    AtomicLong served = new AtomicLong();
    try {
      HttpServer server = alternating(vertx, served);
      LoadGenerator load = new LoadGenerator(vertx, URI.create("http://127.0.0.1:" + server.actualPort()));
      Result result = load.run(Scenarios.health(), 2, Duration.ofMillis(100), Duration.ofMillis(100)).await();
      assertTrue(served.get() >= 1, "served: " + served.get());
      assertTrue(result.requests() < served.get(), result.requests() + " recorded of " + served.get() + " sent");
      assertEquals(result.requests(), result.latencyMicros().getTotalCount());
    } finally {
      vertx.close().await();
    }
  }

  /**
   * A request with a follow-up (a hold, then its release): the follow-up is made from the first
   * answer's body and both are timed as one; a first request that fails sends no follow-up.
   */
  @Test
  void sendsTheFollowUpMadeFromTheAnswerAndTimesBothAsOne() {
    Vertx vertx = Vertx.vertx();
    java.util.List<String> paths = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    try {
      HttpServer server = vertx.createHttpServer().requestHandler(request -> {
        paths.add(request.path());
        boolean fail = request.path().equals("/hold") && "fail".equals(request.getParam("mode"));
        request.response().setStatusCode(fail ? 409 : 200).end(request.path().equals("/hold") ? "{\"id\":\"rsv_1\"}" : "ok");
      }).listen(0, "127.0.0.1").await();
      LoadGenerator load = new LoadGenerator(vertx, URI.create("http://127.0.0.1:" + server.actualPort()));
      Scenario pair = Scenarios.of("pair", n -> Request.get("/hold", null)
          .then(held -> Request.get("/release/" + held.toJsonObject().getString("id"), null)));
      Result result = load.run(pair, 1, Duration.ZERO, Duration.ofMillis(200)).await();
      assertTrue(result.requests() >= 1);
      assertEquals(2 * result.requests(), paths.size(), "each recorded request is the pair: " + paths);
      assertEquals("/release/rsv_1", paths.get(1));
      assertEquals(0, result.errors());

      paths.clear();
      Scenario refused = Scenarios.of("refused", n -> Request.get("/hold?mode=fail", null)
          .then(held -> Request.get("/release/never", null)));
      Result failed = load.run(refused, 1, Duration.ZERO, Duration.ofMillis(100)).await();
      assertEquals(failed.requests(), failed.errors());
      assertTrue(paths.stream().noneMatch(p -> p.startsWith("/release")), "no release after a refused hold: " + paths);
    } finally {
      vertx.close().await();
    }
  }

  /** Answers 500 to the 1st, 3rd, 5th… request and 200 to the others. */
  private static HttpServer alternating(Vertx vertx, AtomicLong served) {
    return vertx.createHttpServer().requestHandler(request -> request.response()
        .setStatusCode(served.incrementAndGet() % 2 == 1 ? 500 : 200).end("ok")).listen(0, "127.0.0.1").await();
  }
}
