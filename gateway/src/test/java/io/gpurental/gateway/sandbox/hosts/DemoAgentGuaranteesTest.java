package io.gpurental.gateway.sandbox.hosts;

import static io.gpurental.gateway.sandbox.hosts.DemoAgentFaultsTest.faults;
import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * The ready guarantee and the downtime credit driven through the sandbox's simulated demo agents
 * and their fault controls, over the real agent protocol: an agent that holds an instance past
 * the deadline, then starts it, credits the started hours of delay; one that never starts it
 * refunds everything when the window ends; one that stops heartbeating during a running
 * reservation has the lost time credited when it comes back. Due times and windows are moved
 * into the past by SQL instead of waiting.
 */
@GatewayTest(settings = {
    "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200",
    "GATEWAY_RESERVATIONS_SANDBOX_INSTANCE_READY_MS=300",
    "GATEWAY_FLEET_HEARTBEAT_INTERVAL_SECONDS=1",
    "GATEWAY_FLEET_OFFLINE_AFTER_MISSED=3"})
class DemoAgentGuaranteesTest {

  @Test
  void anAgentThatStartsPastTheDeadlineIsCreditedTheStartedHoursOfDelay(TestGateway node) {
    String host = "host_osl_5090_01";
    ApiClient renter = ApiClient.signIn(node, "demo-late");
    JsonObject booked = heldReservation(node, renter, host);
    String id = booked.getString("id");
    long paid = total(booked);

    // due 25 minutes ago: running now is 15 minutes past the 10-minute deadline, one started hour
    node.sql("UPDATE reservations SET due_at = now() - interval '25 minutes' WHERE id = '" + id + "'");
    node.sql("UPDATE instances SET due_at = now() - interval '25 minutes' WHERE reservation_id = '" + id + "'");
    assertEquals(200, faults(node, "POST", host, new JsonObject().put("provisioning_held", false)).statusCode());

    JsonObject running = renter.await(id, r -> "running".equals(r.getString("status"))
        && r.getJsonArray("credits").size() == 1, "running, with its credit");
    JsonObject credit = running.getJsonArray("credits").getJsonObject(0);
    assertEquals("ready_late", credit.getString("kind"));
    assertEquals(1, credit.getInteger("hours"));
    assertEquals(paid / 2, credit.getJsonObject("amount").getLong("amount"), "one of the two hours paid");
    renter.await(id, r -> succeeded(r, "ready_credit") == paid / 2, "the credit refunded");
    assertEquals(paid / 2, ledgerRefunds(node, id), "in the ledger");
    assertEquals(200, faults(node, "DELETE", host, null).statusCode());
  }

  @Test
  void anAgentThatNeverStartsTheInstanceRefundsEverythingWhenTheWindowEnds(TestGateway node) {
    String host = "host_osl_4090_01";
    ApiClient renter = ApiClient.signIn(node, "demo-never");
    JsonObject booked = heldReservation(node, renter, host);
    String id = booked.getString("id");
    long paid = total(booked);

    node.sql("UPDATE reservations SET period = tstzrange(now() - interval '2 hours', now()) WHERE id = '" + id + "'");
    JsonObject failed = renter.awaitStatus(id, "failed");
    JsonObject credit = failed.getJsonArray("credits").getJsonObject(0);
    assertEquals("never_ready", credit.getString("kind"));
    assertEquals(paid, credit.getJsonObject("amount").getLong("amount"), "everything back");
    renter.await(id, r -> succeeded(r, "ready_credit") == paid, "refunded in full");
    assertEquals(paid, ledgerRefunds(node, id));
    assertEquals(200, faults(node, "DELETE", host, null).statusCode());
  }

  @Test
  void anAgentThatStopsHeartbeatingWhileRunningIsCreditedTheLostTimeWhenItIsBack(TestGateway node) {
    String host = "host_fra_l40s_01";
    ApiClient renter = ApiClient.signIn(node, "demo-down");
    renter.saveCard("4242424242424242");
    JsonObject booked = renter.reserve("off_fra_l40s_01", 1, null, 2, "saved_card");
    String id = booked.getString("id");
    long paid = total(booked);
    renter.awaitStatus(id, "running");

    assertEquals(200, faults(node, "POST", host, new JsonObject().put("heartbeats", "stopped")).statusCode());
    JsonObject interrupted = renter.await(id, r -> r.getValue("interruption") != null, "interrupted: host offline");
    assertEquals("host offline", interrupted.getJsonObject("interruption").getString("reason"));
    assertEquals(200, faults(node, "POST", host, new JsonObject().put("heartbeats", "running")).statusCode());

    JsonObject back = renter.await(id, r -> r.getJsonArray("credits").size() == 1, "credited once back");
    assertEquals("running", back.getString("status"), "the reservation goes on");
    JsonObject credit = back.getJsonArray("credits").getJsonObject(0);
    assertEquals("downtime", credit.getString("kind"));
    assertEquals(1, credit.getInteger("hours"));
    assertEquals(paid / 2, credit.getJsonObject("amount").getLong("amount"));
    renter.await(id, r -> succeeded(r, "downtime_credit") == paid / 2, "the credit refunded");
    assertEquals(paid / 2, ledgerRefunds(node, id));
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  /** A paid two-hour reservation of one GPU on the host, whose agent holds it preparing. */
  private static JsonObject heldReservation(TestGateway node, ApiClient renter, String host) {
    assertEquals(200, faults(node, "POST", host, new JsonObject().put("provisioning_held", true)).statusCode());
    renter.saveCard("4242424242424242");
    JsonObject booked = renter.reserve("off_" + host.substring("host_".length()), 1, null, 2, "saved_card");
    eventually("the agent holds it preparing", () -> instanceState(node, booked.getString("id")), "preparing"::equals);
    return booked;
  }

  private static long total(JsonObject reservation) {
    return reservation.getJsonObject("price").getJsonObject("total").getLong("amount");
  }

  private static String instanceState(TestGateway node, String reservationId) {
    var rows = node.sql("SELECT state FROM instances WHERE reservation_id = '" + reservationId + "'");
    return rows.size() == 0 ? null : rows.iterator().next().getString(0);
  }

  private static long succeeded(JsonObject reservation, String reason) {
    return reservation.getJsonObject("payment").getJsonArray("refunds").stream().map(JsonObject.class::cast)
        .filter(f -> reason.equals(f.getString("reason")) && "succeeded".equals(f.getString("status")))
        .mapToLong(f -> f.getJsonObject("amount").getLong("amount")).sum();
  }

  /** What the ledger's contra-revenue accounts received for the reservation's refunds. */
  private static long ledgerRefunds(TestGateway node, String reservationId) {
    return node.sql("SELECT coalesce(sum(e.amount), 0) FROM ledger_entries e JOIN ledger_transactions t"
        + " ON t.id = e.transaction_id JOIN refunds f ON f.stripe_refund_id = t.ref JOIN payments p ON p.id = f.payment_id"
        + " WHERE t.kind = 'refund' AND e.account LIKE 'contra_revenue:%' AND p.reservation_id = '" + reservationId + "'")
        .iterator().next().getLong(0);
  }
}
