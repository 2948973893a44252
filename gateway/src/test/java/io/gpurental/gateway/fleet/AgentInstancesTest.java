package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A reservation on an agent's host reaches the agent through its desired state, and becomes
 * {@code running} only from the agent's report, with the instance's SSH host key for the renter.
 */
@GatewayTest(settings = "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200")
class AgentInstancesTest {
  @Test
  void aStartingReservationWakesTheLongPollAndTheAgentsReportMakesItRunning(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("carol") ApiClient renter) throws Exception {
    FakeAgent agent = activeHost(node, operator);
    long version = agent.desiredStateNow().getLong("version");
    assertEquals(0, agent.desiredStateNow().getJsonArray("instances").size());
    long polled = System.nanoTime();
    CompletableFuture<HttpResponse<String>> poll = agent.desiredState(version, 30);

    renter.saveCard("4242424242424242");
    String offerId = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
    String id = renter.reserve(offerId, 2, null, 2, "saved_card").getString("id");
    renter.awaitStatus(id, "provisioning");

    HttpResponse<String> answered = poll.get(30, TimeUnit.SECONDS);
    assertTrue(Duration.ofNanos(System.nanoTime() - polled).toSeconds() < 25, "woken by the change, not the wait");
    assertEquals(200, answered.statusCode(), answered.body());
    JsonObject desired = new JsonObject(answered.body());
    assertTrue(desired.getLong("version") > version);
    JsonObject instance = desired.getJsonArray("instances").getJsonObject(0);
    assertEquals(id, instance.getString("id"));
    assertEquals(ApiClient.SSH_KEY, instance.getString("ssh_public_key"));
    String user = instance.getString("user");
    assertTrue(user.matches("^[a-z_][a-z0-9_]{0,31}$"), user);
    assertEquals(2, instance.getJsonArray("gpus").size());
    assertEquals("GPU-0-3b6c5a1e-test", instance.getJsonArray("gpus").getJsonObject(0).getString("uuid"));
    JsonObject now = agent.desiredStateNow();
    assertEquals(desired.getLong("version"), now.getLong("version"), "asked again: the same state at once");

    assertEquals(204, agent.report(id, new JsonObject().put("state", "preparing")).statusCode());
    assertEquals("provisioning", renter.json("/api/v1/reservations/" + id).getString("status"),
        "running comes only from the agent");
    JsonObject wrongKey = FakeAgent.running(user, 22017);
    wrongKey.getJsonObject("ssh").put("host_key_fingerprint", "SHA256:not-this-key");
    assertEquals(400, agent.report(id, wrongKey).statusCode(), "the fingerprint must be the key's");
    assertEquals(404, agent.report("rsv_notonthishost", FakeAgent.running(user, 22017)).statusCode());

    HttpResponse<String> running = agent.report(id, FakeAgent.running(user, 22017));
    assertEquals(204, running.statusCode(), running.body());
    JsonObject ssh = renter.awaitStatus(id, "running").getJsonObject("ssh");
    assertEquals("ssh -p 22017 " + user + "@203.0.113.7", ssh.getString("command"));
    assertEquals(FakeAgent.HOST_KEY_FINGERPRINT, ssh.getString("host_key_fingerprint"));
    assertEquals("[203.0.113.7]:22017 " + FakeAgent.HOST_KEY, ssh.getString("known_hosts"));
    assertEquals(204, agent.report(id, FakeAgent.running(user, 22017)).statusCode(), "repeating a report is fine");

    HttpResponse<String> cancelled = renter.post("/api/v1/reservations/" + id + "/cancel", null);
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    JsonObject after = agent.desiredStateNow();
    assertEquals(0, after.getJsonArray("instances").size(), "a cancelled instance must not exist");
    assertTrue(after.getLong("version") > desired.getLong("version"));
    assertEquals(204, agent.report(id, new JsonObject().put("state", "stopped")).statusCode());
    assertEquals(409, agent.report(id, FakeAgent.running(user, 22017)).statusCode(), "a stopped instance stays stopped");
  }

  @Test
  void aPaidExtensionMovesTheEndInTheHostsDesiredState(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("dora") ApiClient renter) throws Exception {
    FakeAgent agent = activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    assertEquals(204, agent.report(booked.id(), FakeAgent.running(booked.user(), 22018)).statusCode());
    renter.awaitStatus(booked.id(), "running");
    long version = agent.desiredStateNow().getLong("version");
    CompletableFuture<HttpResponse<String>> poll = agent.desiredState(version, 30);

    HttpResponse<String> extended = renter.post("/api/v1/reservations/" + booked.id() + "/extend",
        new JsonObject().put("hours", 1).put("payment", "saved_card"));
    assertEquals(201, extended.statusCode(), extended.body());
    String end = new JsonObject(extended.body()).getString("end");

    HttpResponse<String> answered = poll.get(30, TimeUnit.SECONDS);
    assertEquals(200, answered.statusCode(), answered.body());
    JsonObject desired = new JsonObject(answered.body());
    assertTrue(desired.getLong("version") > version, "the long poll woke for the new end");
    JsonObject instance = desired.getJsonArray("instances").getJsonObject(0);
    assertEquals(java.time.Instant.parse(end), java.time.Instant.parse(instance.getString("ends_at")));
  }

  static FakeAgent activeHost(TestGateway node, ApiClient operator) {
    FakeAgent agent = FakeAgent.enrol(node, HostEnrolmentTest.createHost(operator).getString("enrollment_token"),
        "NVIDIA H100 80GB HBM3", 4);
    HttpResponse<String> activated = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/activate",
        new JsonObject().put("price_per_gpu_hour", new JsonObject().put("amount", 250).put("currency", "usd")));
    assertEquals(200, activated.statusCode(), activated.body());
    assertEquals(200, agent.heartbeat().statusCode());
    return agent;
  }
}
