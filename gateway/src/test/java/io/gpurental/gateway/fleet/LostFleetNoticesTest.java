package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.fleet.GuaranteeBookings.ONE_HOUR;
import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The fleet's notices to a reservation (host offline, GPU faulty, back again) are sent after the
 * fleet's own commit; one lost there must not cost the renter their credit. Here the host's status
 * and the GPU's health change in SQL alone, so no notice is ever sent: the reservations'
 * scheduler notices the difference with the fleet's view and interrupts and credits all the same.
 * Heartbeats are due only every 5 minutes, so the mark-offline job never steps in.
 */
@GatewayTest(settings = {"GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200", "GATEWAY_FLEET_HEARTBEAT_INTERVAL_SECONDS=300"})
class LostFleetNoticesTest {
  @Test
  void aHostOfflineWithoutANoticeIsInterruptedAndCreditedWhenItIsBack(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("gina") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String id = running(node, agent, operator, renter);
    node.sql("UPDATE host_heartbeats SET last_at = now() - interval '10 minutes' WHERE host_id = '" + agent.hostId() + "'");
    node.sql("UPDATE hosts SET status = 'offline', status_changed_at = now() WHERE id = '" + agent.hostId() + "'");

    JsonObject interruption = renter.await(id, r -> r.getValue("interruption") != null, "interrupted without a notice")
        .getJsonObject("interruption");
    assertEquals("host offline", interruption.getString("reason"));
    assertTrue(Instant.parse(interruption.getString("since")).isBefore(Instant.now().minus(Duration.ofMinutes(9))),
        "since the last heartbeat, not since it was noticed: " + interruption.getString("since"));

    node.sql("UPDATE hosts SET status = 'active', status_changed_at = now() WHERE id = '" + agent.hostId() + "'");
    JsonObject back = renter.await(id, r -> r.getJsonArray("credits").size() == 1, "credited without a notice");
    assertEquals("running", back.getString("status"));
    assertEquals(null, back.getValue("interruption"));
    JsonObject credit = back.getJsonArray("credits").getJsonObject(0);
    assertEquals("downtime", credit.getString("kind"));
    assertEquals(1, credit.getInteger("hours"), "10 minutes down: one started hour");
    assertEquals(ONE_HOUR, credit.getJsonObject("amount").getLong("amount"));
    assertTrue(credit.getString("reason").startsWith("host offline from "), credit.getString("reason"));
    renter.await(id, r -> GuaranteeBookings.ledgerRefunds(node, id, "downtime_credit") == ONE_HOUR, "in the ledger");
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void aFaultyGpuWithoutANoticeIsInterruptedAndCreditedWhenItIsHealthy(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("hugo") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String id = running(node, agent, operator, renter);
    Integer gpu = (Integer) node.sql("SELECT gpu_indexes[1] FROM instances WHERE reservation_id = '" + id + "'")
        .iterator().next().getValue(0);
    String gpuId = agent.hostId() + "_gpu" + gpu;
    node.sql("INSERT INTO gpu_health (gpu_id, status, reason, since) VALUES ('" + gpuId + "', 'faulty',"
        + " 'uncorrected ECC errors', now() - interval '5 minutes') ON CONFLICT (gpu_id) DO UPDATE"
        + " SET status = 'faulty', reason = EXCLUDED.reason, since = EXCLUDED.since");

    JsonObject interruption = renter.await(id, r -> r.getValue("interruption") != null, "interrupted without a notice")
        .getJsonObject("interruption");
    assertEquals("gpu faulty: GPU " + gpu + ", uncorrected ECC errors", interruption.getString("reason"));

    node.sql("UPDATE gpu_health SET status = 'healthy', reason = NULL, since = now() WHERE gpu_id = '" + gpuId + "'");
    JsonObject back = renter.await(id, r -> r.getJsonArray("credits").size() == 1, "credited without a notice");
    assertEquals("running", back.getString("status"));
    assertEquals(null, back.getValue("interruption"));
    JsonObject credit = back.getJsonArray("credits").getJsonObject(0);
    assertEquals(1, credit.getInteger("hours"));
    assertEquals(ONE_HOUR, credit.getJsonObject("amount").getLong("amount"));
    assertTrue(credit.getString("reason").startsWith("gpu faulty: GPU " + gpu), credit.getString("reason"));
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void timeAlreadyCreditedIsNeverCreditedTwice(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("ines") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String id = running(node, agent, operator, renter);
    Integer gpu = (Integer) node.sql("SELECT gpu_indexes[1] FROM instances WHERE reservation_id = '" + id + "'")
        .iterator().next().getValue(0);
    String gpuId = agent.hostId() + "_gpu" + gpu;
    String faultySinceFiveMinutes = "INSERT INTO gpu_health (gpu_id, status, reason, since) VALUES ('" + gpuId
        + "', 'faulty', 'remapped rows', now() - interval '5 minutes') ON CONFLICT (gpu_id) DO UPDATE"
        + " SET status = 'faulty', reason = EXCLUDED.reason, since = EXCLUDED.since";
    String healthy = "UPDATE gpu_health SET status = 'healthy', reason = NULL, since = now() WHERE gpu_id = '" + gpuId + "'";
    node.sql(faultySinceFiveMinutes);
    renter.await(id, r -> r.getValue("interruption") != null, "interrupted");
    node.sql(healthy);
    JsonObject first = renter.await(id, r -> r.getJsonArray("credits").size() == 1, "credited")
        .getJsonArray("credits").getJsonObject(0);

    // faulty again, and the fleet's "since" still says 5 minutes ago: only the time after the
    // first credit counts
    node.sql(faultySinceFiveMinutes);
    JsonObject again = renter.await(id, r -> r.getValue("interruption") != null, "interrupted again")
        .getJsonObject("interruption");
    assertEquals(Instant.parse(first.getString("to")), Instant.parse(again.getString("since")));
    node.sql(healthy);
    JsonObject second = renter.await(id, r -> r.getJsonArray("credits").size() == 2, "credited again")
        .getJsonArray("credits").getJsonObject(1);
    assertEquals(first.getString("to"), second.getString("from"), "from where the first credit ended");
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void aHostDeactivatedWhileOfflineIsNotTakenForServingAgain(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("jonas") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String id = running(node, agent, operator, renter);
    node.sql("UPDATE hosts SET status = 'offline', status_changed_at = now() WHERE id = '" + agent.hostId() + "'");
    renter.await(id, r -> r.getValue("interruption") != null, "interrupted");
    assertEquals(200, operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/deactivate", null).statusCode());

    // a deactivated host's heartbeats are not tracked: neither down nor up, it is left to the grace
    long passes = schedulerPasses(node);
    eventually("two more scheduler passes", () -> schedulerPasses(node), done -> done >= passes + 2);
    JsonObject after = renter.json("/api/v1/reservations/" + id);
    assertTrue(after.getValue("interruption") instanceof JsonObject, "still interrupted: " + after.encode());
    assertEquals("host offline", after.getJsonObject("interruption").getString("reason"), after.encode());
    assertEquals(0, after.getJsonArray("credits").size(), after.encode());
  }

  @Test
  void aGpuFaultyBeforeTheInstanceRanCountsFromWhenItRan(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("karla") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    Integer gpu = (Integer) node.sql("SELECT gpu_indexes[1] FROM instances WHERE reservation_id = '" + booked.id() + "'")
        .iterator().next().getValue(0);
    node.sql("INSERT INTO gpu_health (gpu_id, status, reason, since) VALUES ('" + agent.hostId() + "_gpu" + gpu
        + "', 'faulty', 'uncorrected ECC errors', now() - interval '1 hour') ON CONFLICT (gpu_id) DO UPDATE"
        + " SET status = 'faulty', reason = EXCLUDED.reason, since = EXCLUDED.since");
    assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22019)).statusCode());

    JsonObject interrupted = renter.await(booked.id(), r -> r.getValue("interruption") != null, "interrupted");
    Instant ran = interrupted.getJsonArray("events").stream().map(JsonObject.class::cast)
        .filter(e -> "running".equals(e.getString("to"))).map(e -> Instant.parse(e.getString("at"))).findFirst()
        .orElseThrow();
    Instant since = Instant.parse(interrupted.getJsonObject("interruption").getString("since"));
    assertTrue(!since.isBefore(ran), "not before it ran (" + ran + "), so the grace is whole: " + since);
  }

  /** Completed passes of the reservations' scheduler on this node, from its metrics. */
  private static long schedulerPasses(TestGateway node) {
    java.util.regex.Matcher count = java.util.regex.Pattern
        .compile("gateway_job_duration_seconds_count\\{job=\"reservations.start-and-end-windows\"\\} (\\d+)")
        .matcher(node.getManagement("/metrics").body());
    return count.find() ? Long.parseLong(count.group(1)) : 0;
  }

  /**
   * Books 2 GPUs for 2 h and runs the instance (the agent reports it running), then moves the
   * window and its history 30 minutes back, so outages dated minutes ago fall inside the time it ran.
   */
  private static String running(TestGateway node, FakeAgent agent, ApiClient operator, ApiClient renter) {
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22019)).statusCode());
    assertEquals(null, renter.awaitStatus(booked.id(), "running").getValue("interruption"));
    String id = "'" + booked.id() + "'";
    node.sql("UPDATE reservations SET period = tstzrange(lower(period) - interval '30 minutes',"
        + " upper(period) - interval '30 minutes') WHERE id = " + id);
    node.sql("UPDATE reservation_events SET at = at - interval '30 minutes' WHERE reservation_id = " + id);
    return booked.id();
  }
}
