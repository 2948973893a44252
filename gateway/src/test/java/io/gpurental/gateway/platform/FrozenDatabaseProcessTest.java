package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.platform.db.DatabaseTarget;
import io.gpurental.gateway.platform.db.Migrations;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's own processes frozen (SIGSTOP, as a paused VM or a stalled disk freezes them), not a
 * proxy: routes that need the database answer 503 problem+json within 5 s, even with more requests
 * than pool connections, liveness stays up, and the node recovers by itself after SIGCONT.
 *
 * <p>The server is this class's own (a second embedded PostgreSQL on its own port and data
 * directory): freezing the test JVM's shared one would freeze every other class's database.
 */
class FrozenDatabaseProcessTest {
  private static final Duration FAST = Duration.ofSeconds(5);
  private static final Duration RECOVERY = Duration.ofSeconds(10);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final AtomicInteger SEARCHES = new AtomicInteger();
  private static EmbeddedPostgres server;
  private static TestGateway node;
  private static String offerId;

  @BeforeAll
  static void start() throws IOException {
    server = EmbeddedPostgres.builder().start();
    Migrations.migrate(new DatabaseTarget("127.0.0.1", server.getPort(), "postgres", "postgres", ""));
    Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_DB_URL", "postgresql://postgres@127.0.0.1:" + server.getPort() + "/postgres");
    // fewer connections than the requests below: a full pool must answer 503 in time too
    settings.put("GATEWAY_DB_POOL_SIZE", "4");
    // a silent connection is dropped 1 s after the statement timeout: 3 s, leaving room on a busy machine
    settings.put("GATEWAY_DB_STATEMENT_TIMEOUT_MS", "2000");
    node = TestGateway.start(settings);
    offerId = new JsonObject(node.get("/api/v1/offers").body()).getJsonArray("data").getJsonObject(0).getString("id");
  }

  @AfterAll
  static void stop() throws IOException {
    try {
      if (node != null) {
        node.close();
      }
    } finally {
      server.close();
    }
  }

  @Test
  void frozenServerProcessesAnswer503FastAndTheNodeRecoversWhenTheyThaw() {
    assertEquals(200, uncachedSearch().join().statusCode(), "the pool holds live connections before the freeze");
    assertEquals(200, send("/api/v1/offers/" + offerId).join().statusCode());
    List<Long> frozen = serverProcesses();
    signal("STOP", frozen);
    long thawedAt;
    try {
      List<Timed> answers = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        answers.add(Timed.of("uncached search", this::uncachedSearch));
        answers.add(Timed.of("offer page", () -> send("/api/v1/offers/" + offerId)));
      }
      Timed live = Timed.of("/health/live", () -> send("/health/live"));
      assertEquals(200, live.response().statusCode(), "liveness stays up");
      answers.forEach(FrozenDatabaseProcessTest::assertUnavailableFast);
      Timed later = Timed.of("offer page after the pool emptied", () -> send("/api/v1/offers/" + offerId));
      assertUnavailableFast(later);
    } finally {
      signal("CONT", frozen);
      thawedAt = System.nanoTime();
    }
    Eventually.eventually("an uncached search succeeds again", RECOVERY, () -> uncachedSearch().join().statusCode(),
        status -> status == 200);
    Eventually.eventually("the offer page succeeds again", RECOVERY,
        () -> send("/api/v1/offers/" + offerId).join().statusCode(), status -> status == 200);
    System.out.printf("PostgreSQL processes thawed: requests succeed again after %d ms%n",
        (System.nanoTime() - thawedAt) / 1_000_000);
    assertTrue(System.nanoTime() - thawedAt < RECOVERY.toNanos(), "recovered within " + RECOVERY);
  }

  /** A search no earlier one shares (a filter of its own), so the catalog's cache cannot answer it. */
  private CompletableFuture<HttpResponse<String>> uncachedSearch() {
    return send("/api/v1/offers?min_vram_gb=" + (1 + SEARCHES.getAndIncrement()));
  }

  private static void assertUnavailableFast(Timed answer) {
    HttpResponse<String> response = answer.response();
    System.out.printf("PostgreSQL processes frozen: %s answered %d after %d ms%n", answer.what(),
        response.statusCode(), answer.millis());
    assertEquals(503, response.statusCode(), answer.what() + ": " + response.body());
    assertTrue(answer.millis() < FAST.toMillis(), answer.what() + " took " + answer.millis() + " ms");
    assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
    assertEquals(503, new JsonObject(response.body()).getInteger("status"));
  }

  private record Timed(String what, long startedNanos, CompletableFuture<HttpResponse<String>> future,
      long[] doneNanos) {
    static Timed of(String what, java.util.function.Supplier<CompletableFuture<HttpResponse<String>>> request) {
      long[] done = new long[1];
      long started = System.nanoTime();
      CompletableFuture<HttpResponse<String>> future = request.get().whenComplete((r, e) -> done[0] = System.nanoTime());
      return new Timed(what, started, future, done);
    }

    HttpResponse<String> response() {
      return future.join();
    }

    long millis() {
      future.join();
      return (doneNanos[0] - startedNanos) / 1_000_000;
    }
  }

  private static CompletableFuture<HttpResponse<String>> send(String path) {
    // the client gives up after 20 s, as the user who reported the hang did; the test wants 5
    return HTTP.sendAsync(HttpRequest.newBuilder(URI.create(node.url(path))).timeout(Duration.ofSeconds(20)).GET()
        .build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The postmaster (parent of a backend) and every process it runs, as they are now. */
  private static List<Long> serverProcesses() {
    ProcessHandle postmaster;
    try (Connection connection = server.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
      row.next();
      postmaster = ProcessHandle.of(row.getLong(1)).flatMap(ProcessHandle::parent).orElseThrow();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot find the test PostgreSQL's processes", e);
    }
    // the postmaster first: a backend may exit between the listing and the signal
    return Stream.concat(Stream.of(postmaster), postmaster.descendants()).map(ProcessHandle::pid).toList();
  }

  /** Signals the postmaster (which must work) and the processes listed with it (which may have exited). */
  private static void signal(String signal, List<Long> pids) {
    assertEquals(0, kill(signal, pids.subList(0, 1)), "kill -" + signal + " of the postmaster " + pids.get(0));
    kill(signal, pids.subList(1, pids.size()));
  }

  private static int kill(String signal, List<Long> pids) {
    if (pids.isEmpty()) {
      return 0;
    }
    List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
    pids.forEach(pid -> command.add(Long.toString(pid)));
    try {
      return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start().waitFor();
    } catch (IOException e) {
      throw new IllegalStateException("cannot signal " + pids, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while signalling " + pids, e);
    }
  }
}
