package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * An instance whose own process ended it (the agent's {@code instance_exited}: a renter's
 * {@code kill 1}, its command exiting) is the renter's doing: the reservation ends cancelled with
 * what cancelling then would give, never the host failure's every-started-hour credit; a host's
 * {@code runtime_error} still is credited as before.
 */
@GatewayTest(settings = "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200")
class RenterExitTest {
  @Test
  void theRentersOwnExitEndsAsACancellationWould(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("rita") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22031)).statusCode());
    renter.awaitStatus(booked.id(), "running");
    long cancellingWouldGive = renter.json("/api/v1/reservations/" + booked.id()).getJsonObject("cancellation")
        .getJsonObject("refund").getLong("amount");

    assertEquals(204, agent.report(booked.id(), failed("instance_exited")).statusCode());

    JsonObject ended = renter.await(booked.id(), r -> "cancelled".equals(r.getString("status"))
        && ReadyGuaranteeTest.refunds(r).stream().allMatch(f -> "succeeded".equals(((JsonObject) f).getString("status"))),
        "ended as a cancellation, refunds made");
    assertEquals(0, ended.getJsonArray("credits").size(), "no host-failure credit: " + ended.encode());
    long refunded = ReadyGuaranteeTest.refunds(ended).stream()
        .mapToLong(f -> ((JsonObject) f).getJsonObject("amount").getLong("amount")).sum();
    assertEquals(cancellingWouldGive, refunded, ended.encode());
    assertTrue(refunded < GuaranteeBookings.PAID, "a host failure now would have credited both started hours");
    assertTrue(ended.getJsonArray("events").encode().contains("ended by the instance's own process (instance_exited)"),
        ended.encode());
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void aRentersImagePastTheHostsPullLimitEndsAsACancellationToo(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("ruth") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    long cancellingWouldGive = renter.json("/api/v1/reservations/" + booked.id()).getJsonObject("cancellation")
        .getJsonObject("refund").getLong("amount");
    assertEquals(204, agent.report(booked.id(), new JsonObject().put("state", "pulling")
        .put("pull", new JsonObject().put("bytes_done", 0).putNull("bytes_total"))).statusCode());
    assertEquals(204, agent.report(booked.id(), failed("image_too_large")).statusCode());

    JsonObject ended = renter.await(booked.id(), r -> "cancelled".equals(r.getString("status"))
        && ReadyGuaranteeTest.refunds(r).stream().allMatch(f -> "succeeded".equals(((JsonObject) f).getString("status"))),
        "ended as a cancellation, refunds made");
    assertEquals(0, ended.getJsonArray("credits").size(), "no host-failure credit: " + ended.encode());
    long refunded = ReadyGuaranteeTest.refunds(ended).stream()
        .mapToLong(f -> ((JsonObject) f).getJsonObject("amount").getLong("amount")).sum();
    assertEquals(cancellingWouldGive, refunded, ended.encode());
    assertTrue(ended.getJsonArray("events").encode().contains("image is larger than the host pulls (image_too_large)"),
        ended.encode());
  }

  @Test
  void aHostRuntimeErrorIsStillCreditedAsAHostFailure(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("rolf") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22032)).statusCode());
    renter.awaitStatus(booked.id(), "running");
    assertEquals(204, agent.report(booked.id(), failed("runtime_error")).statusCode());
    JsonObject ended = renter.awaitStatus(booked.id(), "failed");
    assertEquals("host_failed", ended.getJsonArray("credits").getJsonObject(0).getString("kind"), ended.encode());
    assertEquals(GuaranteeBookings.PAID, ended.getJsonArray("credits").getJsonObject(0).getJsonObject("amount")
        .getLong("amount"), "every started hour of the 2 h window");
  }

  private static JsonObject failed(String reason) {
    return new JsonObject().put("state", "failed").put("reason", reason);
  }
}
