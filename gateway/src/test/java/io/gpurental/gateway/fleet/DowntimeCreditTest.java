package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.fleet.GuaranteeBookings.ONE_HOUR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Downtime credit through the real agent protocol: the agent stops heartbeating during a running
 * reservation, the mark-offline job interrupts it; heartbeats resuming credit the lost time (a
 * started hour, 5.15 $ of the 10.30 $ paid for 2 h) and the reservation goes on; not back within
 * the grace (moved into the past by SQL, not waited for), it fails and the rest is refunded.
 */
// offline after 5 s of silence, not 2: a stall after the heartbeat that resumes the instance must not
// interrupt it again before the test has seen it credited once
@GatewayTest(settings = {"GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200", "GATEWAY_FLEET_HEARTBEAT_INTERVAL_SECONDS=1",
    "GATEWAY_FLEET_OFFLINE_AFTER_MISSED=5"})
class DowntimeCreditTest {
  @Test
  void backWithinTheGraceCreditsTheLostTimeAndTheReservationGoesOn(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("gina") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String id = runningWhileHeartbeating(node, agent, operator, renter);

    JsonObject interrupted = renter.await(id, r -> r.getValue("interruption") != null, "interrupted by silence");
    assertEquals("host offline", interrupted.getJsonObject("interruption").getString("reason"));
    assertEquals(0, interrupted.getJsonArray("credits").size(), "credited once it is back");
    assertEquals(200, agent.heartbeat().statusCode());

    JsonObject back = renter.await(id, r -> r.getJsonArray("credits").size() == 1 && r.getValue("interruption") == null,
        "credited, the interruption closed");
    assertEquals("running", back.getString("status"), "the reservation continues");
    JsonObject credit = back.getJsonArray("credits").getJsonObject(0);
    assertEquals("downtime", credit.getString("kind"));
    assertEquals(1, credit.getInteger("hours"));
    assertEquals(ONE_HOUR, credit.getJsonObject("amount").getLong("amount"));
    assertTrue(credit.getString("reason").startsWith("host offline from "), credit.getString("reason"));
    renter.await(id, r -> succeeded(r, "downtime_credit") == ONE_HOUR, "refunded");
    assertEquals(ONE_HOUR, GuaranteeBookings.ledgerRefunds(node, id, "downtime_credit"), "in the ledger");
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void notBackWithinTheGraceFailsAndRefundsTheRest(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("hugo") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String id = runningWhileHeartbeating(node, agent, operator, renter);
    renter.await(id, r -> r.getValue("interruption") != null, "interrupted by silence");
    // 90 minutes into the 2 h window, down for 16 minutes (grace 15): 46 minutes left, one started hour
    node.sql("UPDATE reservations SET period = tstzrange(now() - interval '90 minutes', now() + interval '30 minutes'),"
        + " interrupted_since = now() - interval '16 minutes' WHERE id = '" + id + "'");

    JsonObject failed = renter.awaitStatus(id, "failed");
    JsonObject credit = failed.getJsonArray("credits").getJsonObject(0);
    assertEquals("host_failed", credit.getString("kind"));
    assertEquals(1, credit.getInteger("hours"), credit.encode());
    assertEquals(ONE_HOUR, credit.getJsonObject("amount").getLong("amount"), "the lost time and the rest: 46 min");
    assertTrue(credit.getString("reason").contains("not back within 15 min"), credit.getString("reason"));
    renter.await(id, r -> succeeded(r, "downtime_credit") == ONE_HOUR, "refunded");
    assertEquals(ONE_HOUR, GuaranteeBookings.ledgerRefunds(node, id, "downtime_credit"));
    assertEquals(200, agent.heartbeat().statusCode());
    assertEquals(1, renter.json("/api/v1/reservations/" + id).getJsonArray("credits").size(),
        "coming back after failing credits nothing more");
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void cancelledWhileInterruptedCreditsTheLostTimeBesidesTheCancellationRefund(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("ines") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String id = runningWhileHeartbeating(node, agent, operator, renter);
    renter.await(id, r -> r.getValue("interruption") != null, "interrupted by silence");
    // 30 minutes into the 2 h window, down for 10 minutes (within the 15 min grace), 90 minutes left
    node.sql("UPDATE reservations SET period = tstzrange(now() - interval '30 minutes', now() + interval '90 minutes'),"
        + " interrupted_since = now() - interval '10 minutes' WHERE id = '" + id + "'");

    assertEquals(200, renter.post("/api/v1/reservations/" + id + "/cancel", null).statusCode());
    // the lost 10 minutes: one started hour, no fee; the unused whole hour: 5.15 $ less the 10 % fee
    long cancellation = ONE_HOUR - ONE_HOUR / 10;
    JsonObject cancelled = renter.await(id, r -> succeeded(r, "downtime_credit") == ONE_HOUR
        && succeeded(r, "cancellation") == cancellation, "credited and refunded");
    assertEquals("cancelled", cancelled.getString("status"));
    assertEquals(null, cancelled.getValue("interruption"), "the interruption ends with the reservation");
    JsonObject credit = cancelled.getJsonArray("credits").getJsonObject(0);
    assertEquals(1, cancelled.getJsonArray("credits").size());
    assertEquals("downtime", credit.getString("kind"));
    assertEquals(1, credit.getInteger("hours"));
    assertEquals(ONE_HOUR, credit.getJsonObject("amount").getLong("amount"));
    assertTrue(credit.getString("reason").contains("until cancelled"), credit.getString("reason"));
    assertEquals(ONE_HOUR, GuaranteeBookings.ledgerRefunds(node, id, "downtime_credit"), "in the ledger");
    assertEquals(cancellation, GuaranteeBookings.ledgerRefunds(node, id, "cancellation"));
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  /** Books and runs an instance while the agent heartbeats, then lets the agent fall silent. */
  private static String runningWhileHeartbeating(TestGateway node, FakeAgent agent, ApiClient operator,
      ApiClient renter) {
    ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
    try {
      heartbeats.scheduleAtFixedRate(agent::heartbeat, 0, 300, TimeUnit.MILLISECONDS);
      GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
      assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22019)).statusCode());
      JsonObject running = renter.awaitStatus(booked.id(), "running");
      assertEquals(null, running.getValue("interruption"));
      assertNotNull(running.getJsonArray("credits"));
      return booked.id();
    } finally {
      heartbeats.shutdownNow();
    }
  }

  private static long succeeded(JsonObject reservation, String reason) {
    JsonArray refunds = reservation.getJsonObject("payment").getJsonArray("refunds");
    return refunds.stream().map(JsonObject.class::cast)
        .filter(f -> reason.equals(f.getString("reason")) && "succeeded".equals(f.getString("status")))
        .mapToLong(f -> f.getJsonObject("amount").getLong("amount")).sum();
  }
}
