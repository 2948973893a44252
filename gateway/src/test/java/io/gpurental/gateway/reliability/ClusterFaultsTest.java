package io.gpurental.gateway.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import io.gpurental.gateway.testing.Eventually;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Three gateway JVMs, 200 clients and 5,000 reservation attempts on 20 GPUs over 48 one-hour
 * slots; a third of the way through one node is killed with SIGKILL. No GPU is ever booked twice,
 * every 201 has its row, every refusal is a 409 problem+json, and the only requests without an
 * answer are those the killed node had in flight. Then another node is stopped with SIGTERM under
 * steady load: it reports unready while it still serves, answers every request in flight and
 * exits within 30 s.
 * A node started again takes 1,000 sign-ins and is killed: every session is still signed in on
 * the survivor. Last, on the same database with the exclusion
 * constraint dropped, a naive check-then-insert books one GPU-hour ten times, and the same overlap
 * check counts it: a zero from the check means something.
 *
 * <p>The methods share one cluster (a start of three JVMs costs a minute or two here) and run in
 * order: the last one breaks the database on purpose.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFaultsTest {
  /** 8 H200 + 8 L40S + 4 A100 of the demo fleet: 20 GPUs. */
  private static final List<String> OFFERS = List.of("off_nyc_h200_01", "off_fra_l40s_01", "off_fra_a100_01");
  private static final int ATTEMPTS = Integer.getInteger("storm.attempts", 5_000);
  private static final int CLIENTS = 200;
  private static final int SLOTS = 48;
  private static final int NAIVE_BOOKERS = 10;
  private static final int STEADY_CLIENTS = 8;
  private static final int SESSIONS = 1_000;
  private static GatewayCluster cluster;

  @BeforeAll
  static void start() {
    // 200 clients on a machine others load (load average 20-36 on 2 cores): requests queue for a
    // pooled connection longer than the default 2 s and would be shed as 503 (DatabaseOutageTest's
    // subject, not this one's); here they wait, so every answer is a decision about a booking.
    // The wait queue too: one clean-clone run (2026-12-02) saw a survivor's queue pass the default
    // 200 within half a second of the kill (47 answers shed with 503), though the clients keep at
    // most 200 requests in flight; the other waiters then are the survivor's own (cluster jobs it
    // took over, the demo fleet), not yet pinned down
    cluster = GatewayCluster.start(3, Map.of("GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "1000000",
        "GATEWAY_RATE_LIMITS_SIGN_INS_PER_MINUTE", "100000", "GATEWAY_DB_POOL_WAIT_QUEUE_SIZE", "2000",
        "GATEWAY_DB_POOL_WAIT_TIMEOUT_MS", "60000", "GATEWAY_DB_STATEMENT_TIMEOUT_MS", "30000"));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void aNodeKilledMidStormLosesNothingAndNoGpuIsBookedTwice() throws Exception {
    String token = RemoteSignIn.renterToken(cluster.node(0), "storm");
    BookingStorm storm = new BookingStorm(cluster.nodes(), token, OFFERS, SLOTS);
    GatewayProcess victim = cluster.node(1);
    AtomicBoolean killed = new AtomicBoolean();
    CompletableFuture<Void> kill = new CompletableFuture<>();
    BookingStorm.Result result = storm.run(ATTEMPTS, CLIENTS, done -> {
      if (done >= ATTEMPTS / 3 && killed.compareAndSet(false, true)) {
        // off the HTTP client's thread: the kill waits for the process to end
        CompletableFuture.runAsync(() -> {
          storm.markDown(victim);
          victim.kill();
        }).whenComplete((v, e) -> {
          if (e != null) {
            kill.completeExceptionally(e);
          } else {
            kill.complete(null);
          }
        });
      }
    });
    kill.join();
    long overlaps = OverlapCheck.overlappingPairs(cluster);
    System.out.println("Booking storm with a kill -9: " + result.summary(ATTEMPTS) + "; overlapping pairs "
        + overlaps);

    assertTrue(result.unexpected.isEmpty(), result.unexpected.size() + " unexpected answers, first: "
        + result.unexpected.stream().limit(5).toList());
    assertEquals(ATTEMPTS, result.created.size() + result.conflicts.get() + result.cutConnections.get(),
        "every attempt is a 201, a 409 or a connection the killed node cut");
    assertEquals(0, overlaps, "no GPU is held twice for overlapping time");
    assertEquals(result.created.size(), storedOf(result.created.keySet()), "every 201 has its reservation row");
    assertTrue(result.created.size() > 0 && result.conflicts.get() > 0, result.summary(ATTEMPTS));
    assertTrue(result.createdAfterFault.get() > 0, "the survivors kept booking: " + result.summary(ATTEMPTS));
  }

  @Test
  @Order(2)
  void aNodeStoppedWithSigtermTurnsUnreadyFirstAnswersEveryRequestInFlightAndExits() throws Exception {
    GatewayProcess node = cluster.node(2);
    String token = RemoteSignIn.renterToken(node, "steady");
    ReadinessWatch readiness = ReadinessWatch.start(node);
    // as a load balancer does: the node stays in rotation until its readiness answers 503
    SteadyLoad load = new SteadyLoad(node, "/api/v1/offers", token, () -> readiness.firstUnreadyNanos.get() == 0);
    load.start(STEADY_CLIENTS);
    try {
      Eventually.eventually("100 answers under steady load", Duration.ofSeconds(60), load.answered::get,
          answered -> answered >= 100);
      long terminated = System.nanoTime();
      node.terminate();
      int exit = node.awaitExit(Duration.ofSeconds(30));
      long exitMillis = (System.nanoTime() - terminated) / 1_000_000;
      load.stop();
      readiness.stop();
      long unreadyMillis = readiness.millisAfter(terminated, readiness.firstUnreadyNanos.get());
      System.out.printf("SIGTERM under steady load (%d clients): /health/ready 503 after %d ms, exited (%d) after"
          + " %d ms; answers %s, %d cut%n", STEADY_CLIENTS, unreadyMillis, exit, exitMillis, load.statuses,
          load.cut.size());
      assertTrue(unreadyMillis >= 0, "the node reported unready while it still answered, before it closed");
      assertTrue(load.cut.isEmpty(), "requests in flight cut: " + load.cut.stream().limit(5).toList());
      assertEquals(java.util.Set.of(200), load.statuses.keySet(), "answers: " + load.statuses);
      assertTrue(exitMillis < 30_000, "exited within 30 s: " + exitMillis);
    } finally {
      load.stop();
      readiness.stop();
    }
  }

  @Test
  @Order(3)
  void sessionsSignedInOnANodeThatIsKilledStaySignedInOnTheOthers() throws Exception {
    GatewayProcess node = cluster.restart(1, 2);
    SessionFarm farm = new SessionFarm();
    long started = System.nanoTime();
    List<Map<String, String>> sessions = farm.signIn(node, SESSIONS, 20);
    long signInMillis = (System.nanoTime() - started) / 1_000_000;
    assertEquals(List.of(200), farm.me(node, sessions, 50).stream().distinct().toList(), "signed in where they began");
    node.kill();
    started = System.nanoTime();
    List<Integer> after = farm.me(cluster.node(0), sessions, 50);
    long checkMillis = (System.nanoTime() - started) / 1_000_000;
    long signedIn = after.stream().filter(status -> status == 200).count();
    System.out.printf("Session survival: %d sessions signed in on one node in %d ms; after its kill -9, %d of them"
        + " signed in on the survivor (checked in %d ms); other answers %s%n", SESSIONS, signInMillis, signedIn,
        checkMillis, after.stream().filter(status -> status != 200).distinct().toList());
    assertEquals(SESSIONS, signedIn, "every session outlived the node that made it");
  }

  @Test
  @Order(4)
  void theOverlapCheckFindsTheDoubleBookingsOfANaiveCheckThenInsert() throws Exception {
    NaiveBooker.dropExclusionConstraint(cluster);
    Instant from = Instant.now().plus(30, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
    long before = OverlapCheck.overlappingPairs(cluster);
    int booked = NaiveBooker.race(cluster, NAIVE_BOOKERS, NaiveBooker.anyGpu(cluster), from, from.plusSeconds(3600));
    long overlaps = OverlapCheck.overlappingPairs(cluster);
    System.out.printf("Naive check-then-insert without the constraint: %d of %d bookers got the same GPU-hour;"
        + " overlapping pairs %d%n", booked, NAIVE_BOOKERS, overlaps);
    assertEquals(0, before);
    assertEquals(NAIVE_BOOKERS, booked, "every booker saw the GPU free");
    assertEquals((long) NAIVE_BOOKERS * (NAIVE_BOOKERS - 1) / 2, overlaps, "every pair of them overlaps");
  }

  private static long storedOf(java.util.Set<String> ids) throws SQLException {
    try (Connection connection = cluster.connection();
        PreparedStatement query = connection.prepareStatement("SELECT count(*) FROM reservations WHERE id = ANY(?)")) {
      Array array = connection.createArrayOf("text", ids.toArray());
      query.setArray(1, array);
      try (ResultSet row = query.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }
}
