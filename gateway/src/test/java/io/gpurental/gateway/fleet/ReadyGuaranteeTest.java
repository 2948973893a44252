package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.fleet.GuaranteeBookings.ONE_HOUR;
import static io.gpurental.gateway.fleet.GuaranteeBookings.PAID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The ready guarantee through the real agent protocol: an instance reported running after the
 * 10-minute deadline credits every started hour of delay (at the hourly rate paid) in the ledger
 * and on the reservation; one on time credits nothing; one that never runs is refunded in full
 * when its window ends. The delay is made by moving the due time into the past, not by waiting.
 */
@GatewayTest(settings = "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200")
class ReadyGuaranteeTest {
  @Test
  void runningPastTheDeadlineIsCreditedEveryStartedHourOfDelay(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("dana") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    Row measured = node.sql("SELECT due_at, delivered_at FROM instances WHERE reservation_id = '" + booked.id() + "'")
        .iterator().next();
    assertNotNull(measured.getOffsetDateTime("due_at"), "the launch carries when it was due");
    assertNotNull(measured.getOffsetDateTime("delivered_at"), "the agent got it with its desired state");

    // due 30 minutes ago: running now is 20 minutes past the deadline, one started hour of delay
    node.sql("UPDATE reservations SET due_at = now() - interval '30 minutes' WHERE id = '" + booked.id() + "'");
    node.sql("UPDATE instances SET due_at = now() - interval '30 minutes' WHERE reservation_id = '" + booked.id() + "'");
    assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22017)).statusCode());

    JsonObject running = renter.await(booked.id(), r -> "running".equals(r.getString("status"))
        && r.getJsonArray("credits").size() == 1, "running with its credit");
    JsonObject credit = running.getJsonArray("credits").getJsonObject(0);
    assertEquals("ready_late", credit.getString("kind"));
    assertEquals(1, credit.getInteger("hours"));
    assertEquals(ONE_HOUR, credit.getJsonObject("amount").getLong("amount"), "10.30 $ for 2 h: 5.15 $ an hour");
    assertTrue(credit.getString("reason").contains("after it was due"), credit.getString("reason"));
    JsonObject refund = renter.await(booked.id(), r -> refunds(r).size() == 1
        && "succeeded".equals(refunds(r).getJsonObject(0).getString("status")), "credit refunded").getJsonObject("payment")
        .getJsonArray("refunds").getJsonObject(0);
    assertEquals("ready_credit", refund.getString("reason"));
    assertEquals(ONE_HOUR, refund.getJsonObject("amount").getLong("amount"));
    assertEquals(new JsonArray().add(refund.getString("id")), credit.getJsonArray("refund_ids"));
    assertEquals(ONE_HOUR, GuaranteeBookings.ledgerRefunds(node, booked.id(), "ready_credit"), "in the ledger");

    assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22017)).statusCode());
    assertEquals(1, renter.json("/api/v1/reservations/" + booked.id()).getJsonArray("credits").size(),
        "a repeated report credits nothing twice");
    JsonObject ready = renter.json("/api/v1/offers/" + offerOf(operator, agent)).getJsonObject("time_to_ready");
    assertEquals(1, ready.getInteger("samples"));
    assertTrue(ready.getInteger("p50_seconds") >= 1800 && ready.getInteger("p50_seconds") < 1900, ready.encode());
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void runningWithinTheDeadlineCreditsNothing(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("erin") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    node.sql("UPDATE reservations SET due_at = now() - interval '9 minutes' WHERE id = '" + booked.id() + "'");
    assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22018)).statusCode());
    JsonObject running = renter.awaitStatus(booked.id(), "running");
    assertEquals(0, running.getJsonArray("credits").size(), running.encode());
    assertEquals(0, refunds(running).size());
    Row row = node.sql("SELECT due_at, delivered_at, running_at FROM instances WHERE reservation_id = '"
        + booked.id() + "'").iterator().next();
    Instant due = row.getOffsetDateTime("due_at").toInstant();
    Instant delivered = row.getOffsetDateTime("delivered_at").toInstant();
    Instant ran = row.getOffsetDateTime("running_at").toInstant();
    assertTrue(!delivered.isBefore(due.minusSeconds(1)) && !ran.isBefore(delivered), due + " " + delivered + " " + ran);
    assertTrue(Duration.between(due, ran).toSeconds() < 60, "measured from the launch, not from the test's SQL");
  }

  /**
   * A renter's own (huge) image: the 30 minutes it pulled are the renter's time, not the host's
   * delay, so running 38 minutes after it was due is 8 minutes late and credits nothing (counted
   * whole, it was an hour's credit).
   */
  @Test
  void pullingTheRentersOwnImageDoesNotCountAsDelay(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("olga") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    node.sql("UPDATE reservations SET image_template_id = NULL, image_ref = 'registry.example/huge:1',"
        + " due_at = now() - interval '38 minutes' WHERE id = '" + booked.id() + "'");
    node.sql("UPDATE instances SET due_at = now() - interval '38 minutes' WHERE reservation_id = '" + booked.id() + "'");
    assertEquals(204, agent.report(booked.id(), new JsonObject().put("state", "preparing")).statusCode());
    assertEquals(204, agent.report(booked.id(), pulling(0)).statusCode());
    node.sql("UPDATE reservation_events SET at = now() - interval '35 minutes' WHERE reservation_id = '" + booked.id()
        + "' AND cause LIKE 'pulling the image%'");
    assertEquals(204, agent.report(booked.id(), pulling(100)).statusCode());
    node.sql("UPDATE reservation_events SET at = now() - interval '5 minutes' WHERE reservation_id = '" + booked.id()
        + "' AND cause LIKE 'pulling the image 100%'");
    assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22019)).statusCode());

    JsonObject running = renter.awaitStatus(booked.id(), "running");
    assertEquals(0, running.getJsonArray("credits").size(), running.encode());
    assertEquals(0, refunds(running).size());
  }

  /** The same pull of a template image is the host's: the whole 38 minutes count, an hour is credited. */
  @Test
  void pullingATemplateImageStillCountsAsDelay(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("oleg") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    node.sql("UPDATE reservations SET image_template_id = 'img_any', image_ref = 'registry.example/t@sha256:"
        + "0".repeat(64) + "', due_at = now() - interval '38 minutes' WHERE id = '" + booked.id() + "'");
    assertEquals(204, agent.report(booked.id(), new JsonObject().put("state", "preparing")).statusCode());
    assertEquals(204, agent.report(booked.id(), pulling(0)).statusCode());
    node.sql("UPDATE reservation_events SET at = now() - interval '35 minutes' WHERE reservation_id = '" + booked.id()
        + "' AND cause LIKE 'pulling the image%'");
    assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22020)).statusCode());
    JsonObject running = renter.await(booked.id(), r -> r.getJsonArray("credits").size() == 1, "credited");
    assertEquals(ONE_HOUR, running.getJsonArray("credits").getJsonObject(0).getJsonObject("amount").getLong("amount"));
  }

  private static JsonObject pulling(int percent) {
    return new JsonObject().put("state", "pulling").put("pull", new JsonObject().put("bytes_done", percent * 10_000_000L)
        .put("bytes_total", 1_000_000_000L));
  }

  @Test
  void anInstanceThatNeverRunsIsRefundedInFullWhenItsWindowEnds(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("frank") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    assertEquals(204, agent.report(booked.id(), new JsonObject().put("state", "preparing")).statusCode());
    // the window is over now, and the agent never said running
    node.sql("UPDATE reservations SET period = tstzrange(now() - interval '1 hour', now()) WHERE id = '"
        + booked.id() + "'");

    JsonObject failed = renter.awaitStatus(booked.id(), "failed");
    JsonObject credit = failed.getJsonArray("credits").getJsonObject(0);
    assertEquals("never_ready", credit.getString("kind"));
    assertEquals(PAID, credit.getJsonObject("amount").getLong("amount"), "everything back");
    JsonArray events = failed.getJsonArray("events");
    assertTrue(events.getJsonObject(events.size() - 1).getString("cause").contains("never became ready"),
        events.encode());
    renter.await(booked.id(), r -> refunds(r).size() == 1
        && "succeeded".equals(refunds(r).getJsonObject(0).getString("status")), "refunded");
    assertEquals(PAID, GuaranteeBookings.ledgerRefunds(node, booked.id(), "ready_credit"));
    Eventually.eventually("the instance is no longer wanted", () -> agent.desiredStateNow().getJsonArray("instances")
        .stream().noneMatch(i -> booked.id().equals(((JsonObject) i).getString("id"))));
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  static JsonArray refunds(JsonObject reservation) {
    return reservation.getJsonObject("payment").getJsonArray("refunds");
  }

  static String offerOf(ApiClient operator, FakeAgent agent) {
    return operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
  }
}
