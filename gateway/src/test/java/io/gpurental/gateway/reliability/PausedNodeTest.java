package io.gpurental.gateway.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.Eventually;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Scenario 7: one node of three is paused with SIGSTOP for 90 s under a booking and payment load,
 * then resumed with SIGCONT. No GPU is booked twice, every paid reservation is confirmed and every
 * confirmed one paid, the ledger checks out, no cluster job ran on two nodes at once (from the
 * nodes' job log), and the rate limit's overshoot is measured: one token writes far above its
 * per-minute limit all along, and every write let through above the limit is counted.
 */
class PausedNodeTest {
  private static final Duration PAUSE = Duration.ofSeconds(90);
  private static final int WRITES_PER_MINUTE = 120;
  private static final int PAYERS = 4;
  private static GatewayCluster cluster;

  @BeforeAll
  static void start() {
    cluster = GatewayCluster.start(3, Map.of("GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS", "200",
        "GATEWAY_STRIPE_RECONCILE_INTERVAL_SECONDS", "5",
        "GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", Integer.toString(WRITES_PER_MINUTE),
        "GATEWAY_DB_POOL_WAIT_TIMEOUT_MS", "60000", "GATEWAY_DB_STATEMENT_TIMEOUT_MS", "30000",
        "JAVA_TOOL_OPTIONS", ClusterJobRuns.NODE_LOG_OPTION));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aNodePausedFor90sDoublesNoBookingNoPaymentAndNoJobRun() throws Exception {
    GatewayProcess paused = cluster.node(2);
    RemoteApi operator = new RemoteApi(cluster.node(0), RemoteSignIn.operatorToken(cluster.node(0)));
    List<String> tokens = java.util.stream.IntStream.range(0, PAYERS)
        .mapToObj(i -> RemoteSignIn.renterToken(cluster.node(i % 3), "payer" + i)).toList();
    BookingPayers payers = new BookingPayers(cluster.nodes(), tokens, cluster.faultControlKey());
    RateLimitProbe probe = new RateLimitProbe(cluster.nodes(), RemoteSignIn.renterToken(cluster.node(1), "hammer"));
    payers.start();
    probe.start(2);
    long pausedAt;
    long resumedAt;
    long membersTwoMillis;
    long rejoinedMillis;
    try {
      Eventually.eventually("bookings paid before the pause", Duration.ofSeconds(90), payers.paid::size,
          paid -> paid >= 10);
      int paidBefore = payers.paid.size();
      // a balancer notices the silent node and stops sending to it; what it had in flight waits
      paused.pause();
      pausedAt = System.nanoTime();
      payers.outOfRotation(paused);
      probe.outOfRotation(paused);
      membersTwoMillis = millisUntil(pausedAt, "the others drop the paused node", PAUSE,
          () -> cluster.node(0).clusterMembers() == 2 && cluster.node(1).clusterMembers() == 2);
      LockSupport.parkNanos(pausedAt + PAUSE.toNanos() - System.nanoTime()); // the fault's length, not a wait for a condition
      int paidDuringPause = payers.paid.size() - paidBefore;
      paused.resume();
      resumedAt = System.nanoTime();
      rejoinedMillis = millisUntil(resumedAt, "the resumed node is back in the cluster of 3", Duration.ofMinutes(5),
          () -> cluster.nodes().stream().allMatch(node -> node.clusterMembers() == 3));
      payers.backInRotation(paused);
      probe.backInRotation(paused);
      int paidAtRejoin = payers.paid.size();
      Eventually.eventually("bookings paid after the rejoin", Duration.ofSeconds(90), payers.paid::size,
          paid -> paid >= paidAtRejoin + 5);
      System.out.printf("Scenario 7: %d paid before the pause, %d during it; the others saw 2 members after %d ms;"
          + " after SIGCONT all 3 nodes saw 3 members after %d ms%n", paidBefore, paidDuringPause, membersTwoMillis,
          rejoinedMillis);
    } finally {
      payers.stop();
      probe.stop();
    }
    Eventually.eventually("every paid reservation past pending_payment", Duration.ofSeconds(60),
        () -> pendingAmong(payers.paid), pending -> pending == 0);
    long overlaps = OverlapCheck.overlappingPairs(cluster);
    long chargedUnconfirmed = cluster.count("""
        SELECT count(*) FROM payments p JOIN reservations r ON r.id = p.reservation_id
        WHERE p.status = 'succeeded' AND r.status NOT IN ('confirmed', 'provisioning', 'running', 'completed')""");
    long confirmedUnpaid = cluster.count("""
        SELECT count(*) FROM reservations r WHERE r.status IN ('confirmed', 'provisioning', 'running', 'completed')
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.reservation_id = r.id AND p.status = 'succeeded')""");
    long paidStored = cluster.count("SELECT count(*) FROM payments WHERE status = 'succeeded'");
    JsonObject ledger = operator.expect(200, "GET", "/api/v1/operator/ledger-check", null);
    long twiceEvents = cluster.count("""
        SELECT count(*) FROM (SELECT reservation_id, to_status FROM reservation_events
        GROUP BY reservation_id, to_status HAVING count(*) > 1) twice""");
    List<ClusterJobRuns.Run> runs = ClusterJobRuns.read(cluster);
    List<List<ClusterJobRuns.Run>> concurrent = ClusterJobRuns.concurrent(runs);
    long pausedRuns = runs.stream().filter(run -> run.node().equals(paused.name())).count();
    int overshoot = probe.overshoot(WRITES_PER_MINUTE);
    System.out.printf("Scenario 7: %d reservations paid by checkout (%d succeeded payments stored), %d conflicts,"
        + " %d retried sends, %d x 429 to payers, slowest payer answer %d ms; overlapping pairs %d; charged but"
        + " unconfirmed %d, confirmed but unpaid %d; ledger ok %s (%d transactions); status changes recorded twice %d;"
        + " %d job runs logged (%d on the paused node, %d cut short by its freeze), %d pairs at once on two nodes %s%n",
        payers.paid.size(),
        paidStored, payers.conflicts.get(), payers.retries.get(), payers.limited.get(), payers.slowestMillis.get(),
        overlaps, chargedUnconfirmed, confirmedUnpaid, ledger.getBoolean("ok"), ledger.getInteger("transactions"),
        twiceEvents, runs.size(), pausedRuns, ClusterJobRuns.cutByFreeze(cluster), concurrent.size(),
        concurrent.stream().limit(3).toList());
    System.out.printf("Scenario 7, rate limit %d writes/min for one token over the nodes in rotation: let through"
        + " per window %s, refused per window %s, overshoot %d, other answers %d, slowest answer %d ms%n",
        WRITES_PER_MINUTE, probe.accepted().values(), probe.refused().values(), overshoot, probe.other.get(),
        probe.slowestMillis.get());
    assertTrue(payers.unexpected.isEmpty(), "unexpected: " + payers.unexpected.stream().limit(5).toList());
    assertEquals(0, overlaps, "no GPU held twice");
    assertEquals(0, chargedUnconfirmed, "charged but not confirmed");
    assertEquals(0, confirmedUnpaid, "confirmed but not paid");
    assertTrue(ledger.getBoolean("ok"), "ledger: " + ledger.encode());
    assertEquals(payers.paid.size(), paidStored, "one succeeded payment per paid checkout");
    assertEquals(0, twiceEvents, "no status change applied twice");
    assertTrue(pausedRuns > 0 && runs.size() > pausedRuns, "jobs ran, on the paused node too: " + runs.size());
    assertEquals(List.of(), concurrent, "no job ran on two nodes at once");
  }

  private static long pendingAmong(java.util.Set<String> ids) {
    try (java.sql.Connection connection = cluster.connection(); java.sql.PreparedStatement query =
        connection.prepareStatement("SELECT count(*) FROM reservations WHERE id = ANY(?) AND status = 'pending_payment'")) {
      query.setArray(1, connection.createArrayOf("text", ids.toArray()));
      try (java.sql.ResultSet row = query.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static long millisUntil(long fromNanos, String what, Duration limit, java.util.function.BooleanSupplier done) {
    Eventually.eventually(what, limit, done::getAsBoolean, Boolean::booleanValue);
    return (System.nanoTime() - fromNanos) / 1_000_000;
  }
}
