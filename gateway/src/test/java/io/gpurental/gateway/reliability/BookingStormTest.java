package io.gpurental.gateway.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three gateway JVMs, 200 clients and 5,000 reservation attempts on 20 GPUs over 48 one-hour
 * slots; a third of the way through one node is killed with SIGKILL. No GPU is ever booked twice,
 * every 201 has its row, every refusal is a 409 problem+json, and the only requests without an
 * answer are those the killed node had in flight.
 */
class BookingStormTest {
  /** 8 H200 + 8 L40S + 4 A100 of the demo fleet: 20 GPUs. */
  private static final List<String> OFFERS = List.of("off_nyc_h200_01", "off_fra_l40s_01", "off_fra_a100_01");
  private static final int ATTEMPTS = Integer.getInteger("storm.attempts", 5_000);
  private static final int CLIENTS = 200;
  private static final int SLOTS = 48;
  private static GatewayCluster cluster;

  @BeforeAll
  static void start() {
    cluster = GatewayCluster.start(3, Map.of("GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "1000000"));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
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
