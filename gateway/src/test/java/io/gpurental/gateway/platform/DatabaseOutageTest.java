package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.gpurental.gateway.platform.db.DatabaseOutages;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.FreezableProxy;
import io.gpurental.gateway.testing.TestDatabase;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** With PostgreSQL frozen, requests and readiness answer 503 within seconds; it recovers by itself. */
class DatabaseOutageTest {
  private static final Duration FAST = Duration.ofSeconds(5);
  private static final ListAppender<ILoggingEvent> LOG = new ListAppender<>();
  private static FreezableProxy proxy;
  private static TestGateway node;

  @BeforeAll
  static void start() {
    LOG.start();
    rootLogger().addAppender(LOG);
    URI database = URI.create(TestDatabase.newDatabaseUrl());
    proxy = FreezableProxy.start(database.getHost(), database.getPort());
    Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_DB_URL", "postgresql://postgres@127.0.0.1:" + proxy.port() + database.getPath());
    // a frozen pooled connection is dropped after the statement timeout + 1 s: 2.5 s, well under FAST
    settings.put("GATEWAY_DB_STATEMENT_TIMEOUT_MS", "1500");
    node = TestGateway.start(settings);
  }

  @AfterAll
  static void stop() {
    node.close();
    proxy.close();
    rootLogger().detachAppender(LOG);
  }

  @Test
  void frozenDatabaseAnswers503WithRetryAfterAndRecoversWhenItReturns() {
    ApiClient alice = ApiClient.signIn(node, "alice");
    assertEquals(200, alice.get("/api/v1/me").statusCode(), "the token is looked up in PostgreSQL");

    proxy.freeze();
    // first on a pooled connection that goes silent, then on a new one whose handshake hangs
    assertUnavailableFast("GET /api/v1/me on a pooled connection", () -> alice.get("/api/v1/me"));
    assertUnavailableFast("GET /api/v1/me on a new connection", () -> alice.get("/api/v1/me"));
    assertNotReadyFast("public /health/ready", () -> node.get("/health/ready"));
    assertNotReadyFast("management /health/ready", () -> node.getManagement("/health/ready"));

    proxy.thaw();
    long thawed = System.nanoTime();
    Eventually.eventually("requests succeed again", Duration.ofSeconds(30), () -> alice.get("/api/v1/me").statusCode(),
        status -> status == 200);
    System.out.printf("PostgreSQL thawed: requests succeed again after %d ms%n", millisSince(thawed));
    Eventually.eventually("ready again", Duration.ofSeconds(30), () -> node.get("/health/ready").statusCode(),
        status -> status == 200);
    assertEquals(List.of(), logged("already complete"), "each health check completes once");
  }

  @Test
  void aStatementLongerThanTheStatementTimeoutIsCancelledAsAnOutage() {
    Throwable failure = assertThrows(IllegalStateException.class,
        () -> node.sql("SELECT pg_sleep(30)")).getCause().getCause();
    assertTrue(failure instanceof PgException, String.valueOf(failure));
    assertEquals("57014", ((PgException) failure).getSqlState(), "canceled by statement_timeout");
    assertTrue(DatabaseOutages.isOutage(failure), "answered 503 like any outage");
  }

  private static void assertUnavailableFast(String what, Supplier<HttpResponse<String>> request) {
    long start = System.nanoTime();
    HttpResponse<String> response = request.get();
    long took = millisSince(start);
    System.out.printf("PostgreSQL frozen: %s answered %d after %d ms%n", what, response.statusCode(), took);
    assertEquals(503, response.statusCode(), what + ": " + response.body());
    assertTrue(took < FAST.toMillis(), what + " took " + took + " ms");
    assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
    JsonObject problem = new JsonObject(response.body());
    assertEquals("urn:problem-type:gpu-rental:unavailable", problem.getString("type"));
    long retryAfter = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
    assertTrue(retryAfter > 0 && retryAfter <= 60, "Retry-After " + retryAfter);
    assertTrue(!response.body().contains("Exception"), "no internals in " + response.body());
  }

  private static void assertNotReadyFast(String what, Supplier<HttpResponse<String>> request) {
    long start = System.nanoTime();
    HttpResponse<String> response = request.get();
    long took = millisSince(start);
    System.out.printf("PostgreSQL frozen: %s answered %d after %d ms%n", what, response.statusCode(), took);
    assertEquals(503, response.statusCode(), what + ": " + response.body());
    assertTrue(took < FAST.toMillis(), what + " took " + took + " ms");
    assertEquals("DOWN", new JsonObject(response.body()).getString("status"));
  }

  private static List<String> logged(String fragment) {
    synchronized (LOG) {
      return LOG.list.stream()
          .filter(event -> event.getFormattedMessage().contains(fragment)
              || event.getThrowableProxy() != null && String.valueOf(event.getThrowableProxy().getMessage()).contains(fragment))
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
    }
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  private static Logger rootLogger() {
    return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  }
}
