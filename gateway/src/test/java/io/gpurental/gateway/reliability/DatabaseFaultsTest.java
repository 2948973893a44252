package io.gpurental.gateway.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.reliability.DatabaseRoutes.Answer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Scenario 5: the cluster's PostgreSQL fails under load, three ways: the proxy in front of it stops
 * forwarding, its processes are stopped with SIGSTOP (postmaster and backends), and it is shut
 * down and started again on the same data. Meanwhile clients keep booking with Idempotency-Keys,
 * retrying on 503. Every route that needs the database answers 503 problem+json within 5 s on
 * every node while liveness stays 200; every route serves again on every node within 10 s of the
 * database's return; and no reservation is written twice. The nodes run with the default database timeouts.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatabaseFaultsTest {
  private static final long ANSWER_LIMIT_MS = 5_000;
  private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(10);
  private static final int WRITERS = 6;
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static GatewayCluster cluster;
  private static DatabaseRoutes routes;
  private static RetryingWriters writers;

  @BeforeAll
  static void start() {
    cluster = GatewayCluster.start(3, Map.of("GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "1000000"));
    routes = new DatabaseRoutes(RemoteSignIn.renterToken(cluster.node(0), "prober"),
        RemoteSignIn.operatorToken(cluster.node(1)));
    writers = new RetryingWriters(cluster.nodes(), RemoteSignIn.renterToken(cluster.node(2), "writer"));
    writers.start(WRITERS);
    awaitServing("before any fault", Duration.ofSeconds(120));
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (writers != null) {
      writers.stop();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void aProxyThatStopsForwardingAnswers503FastAndRecovers() {
    outage("proxy stops forwarding", cluster::freezeDatabase, cluster::thawDatabase);
  }

  @Test
  @Order(2)
  void postgresProcessesStoppedWithSigstopAnswer503FastAndRecover() {
    outage("PostgreSQL SIGSTOPped", cluster::freezeDatabaseProcesses, cluster::thawDatabaseProcesses);
  }

  @Test
  @Order(3)
  void aPostgresRestartAnswers503FastAndRecovers() {
    outage("PostgreSQL restarted", cluster::stopDatabase, cluster::startDatabase);
  }

  @Test
  @Order(4)
  void noReservationWasWrittenTwice() throws Exception {
    writers.stop();
    Set<String> answered = new HashSet<>(writers.created.values());
    Set<String> stored = new HashSet<>();
    try (Connection connection = cluster.connection(); PreparedStatement query = connection.prepareStatement("""
        SELECT r.id FROM reservations r JOIN identities i ON i.account_id = r.account_id
        WHERE i.provider = 'github' AND i.login = 'writer'""");
        ResultSet rows = query.executeQuery()) {
      while (rows.next()) {
        stored.add(rows.getString(1));
      }
    }
    long overlaps = OverlapCheck.overlappingPairs(cluster);
    System.out.printf("Scenario 5, writes: %d reservations by Idempotency-Key (%d retried sends), %d conflicts;"
        + " %d distinct ids answered, %d rows stored; overlapping pairs %d; unexpected %s%n", writers.created.size(),
        writers.retried.get(), writers.conflicts.get(), answered.size(), stored.size(), overlaps,
        writers.unexpected.stream().limit(5).toList());
    assertTrue(writers.unexpected.isEmpty(), "unexpected answers: " + writers.unexpected.stream().limit(5).toList());
    assertTrue(writers.retried.get() > 0, "the writers met the outages");
    assertEquals(writers.created.size(), answered.size(), "each key its own reservation");
    assertEquals(answered, stored, "every row was answered once, and no row is there that no 201 announced");
    assertEquals(0, overlaps);
  }

  /** Applies the fault, probes every route on every node twice, restores, and waits for service. */
  private static void outage(String fault, Runnable apply, Runnable restore) {
    int retriedBefore = writers.retried.get();
    int createdBefore = writers.created.size();
    apply.run();
    List<Answer> answers = new ArrayList<>();
    List<Integer> liveness;
    try {
      CompletableFuture<List<Integer>> live = CompletableFuture.supplyAsync(DatabaseFaultsTest::liveness);
      // the first round meets pooled connections gone silent, the second new connections
      answers.addAll(routes.probe(cluster.nodes()));
      answers.addAll(routes.probe(cluster.nodes()));
      liveness = live.join();
    } finally {
      restore.run();
    }
    long recoveryMillis = awaitServing("after " + fault, Duration.ofSeconds(60));
    long slowest = answers.stream().mapToLong(Answer::millis).max().orElseThrow();
    List<Answer> notUnavailable = answers.stream().filter(answer -> !answer.unavailable()).toList();
    List<Answer> slow = answers.stream().filter(answer -> answer.millis() >= ANSWER_LIMIT_MS).toList();
    System.out.printf("Scenario 5, %s: %d answers from %d routes x %d nodes, slowest %d ms, %d not a 503"
        + " problem %s; liveness %s; every route served again %d ms after the database returned%n", fault,
        answers.size(), routes.size(), cluster.nodes().size(), slowest, notUnavailable.size(),
        notUnavailable.stream().limit(3).toList(), liveness, recoveryMillis);
    assertTrue(slow.isEmpty(), fault + ": answers after 5 s or more: " + slow);
    assertTrue(notUnavailable.isEmpty(), fault + ": not a 503 problem+json: " + notUnavailable);
    assertEquals(List.of(200), liveness.stream().distinct().toList(), fault + ": liveness on every node");
    assertTrue(recoveryMillis <= RECOVERY_LIMIT.toMillis(), fault + ": served again after " + recoveryMillis + " ms");
    awaitWriterProgress(fault, createdBefore, retriedBefore);
  }

  /** /health/live on every node, asked while the database is down (each within 5 s). */
  private static List<Integer> liveness() {
    return cluster.nodes().stream().map(node -> {
      long started = System.nanoTime();
      try {
        int status = HTTP.send(HttpRequest.newBuilder(URI.create(node.managementUrl("/health/live")))
            .timeout(Duration.ofMillis(ANSWER_LIMIT_MS)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        return (System.nanoTime() - started) / 1_000_000 < ANSWER_LIMIT_MS ? status : -2;
      } catch (java.io.IOException e) {
        return -1;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return -1;
      }
    }).toList();
  }

  /**
   * Probes until each route has been served on each node; returns when the last of them was first
   * served, in milliseconds from now.
   */
  private static long awaitServing(String when, Duration limit) {
    long started = System.nanoTime();
    Map<String, Long> firstServed = new java.util.HashMap<>();
    List<Answer> last = List.of();
    while (System.nanoTime() - started < limit.toNanos()) {
      last = routes.probe(cluster.nodes());
      last.stream().filter(Answer::served)
          .forEach(answer -> firstServed.putIfAbsent(answer.route() + "@" + answer.node(), answer.answeredNanos()));
      if (firstServed.size() == routes.size() * cluster.nodes().size()) {
        return (firstServed.values().stream().mapToLong(Long::longValue).max().orElseThrow() - started) / 1_000_000;
      }
    }
    throw new AssertionError("not every route served " + when + " within " + limit.toSeconds() + " s: "
        + last.stream().filter(answer -> !answer.served()).limit(5).toList());
  }

  private static void awaitWriterProgress(String fault, int createdBefore, int retriedBefore) {
    io.gpurental.gateway.testing.Eventually.eventually("writers book again after " + fault, Duration.ofSeconds(60),
        writers.created::size, created -> created > createdBefore);
    System.out.printf("Scenario 5, %s: writers retried %d sends during it, booked %d more%n", fault,
        writers.retried.get() - retriedBefore, writers.created.size() - createdBefore);
  }
}
