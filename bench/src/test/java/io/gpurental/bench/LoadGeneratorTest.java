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

  @Test
  void stopsByItselfAndCountsNon2xxAsErrors() {
    Vertx vertx = Vertx.vertx();
    AtomicLong served = new AtomicLong();
    try {
      HttpServer server = vertx.createHttpServer().requestHandler(request -> request.response()
          .setStatusCode(served.incrementAndGet() % 2 == 0 ? 500 : 200).end("ok")).listen(0, "127.0.0.1").await();
      LoadGenerator load = new LoadGenerator(vertx, URI.create("http://127.0.0.1:" + server.actualPort()));
      Result result = load.run(Scenarios.health(), 4, Duration.ofMillis(100), Duration.ofMillis(300)).await();
      assertTrue(result.requests() > 10, "requests: " + result.requests());
      assertTrue(result.requests() < served.get(), "the warm-up is not recorded");
      long expectedErrors = result.requests() / 2;
      assertTrue(Math.abs(result.errors() - expectedErrors) <= 4, result.errors() + " errors of " + result.requests());
      assertTrue(result.firstError().startsWith("HTTP 500"), result.firstError());
      assertTrue(result.seconds() > 0.2 && result.seconds() < 1.5, "seconds: " + result.seconds());
      assertEquals(result.requests(), result.latencyMicros().getTotalCount());
    } finally {
      vertx.close().await();
    }
  }
}
