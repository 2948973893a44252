package io.gpurental.gateway.sandbox.hosts;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's demo fleet is run by simulated host agents over the real agent protocol: they
 * heartbeat with the credential the fleet issued them, a demo reservation reaches them through its
 * host's desired state, and {@code running} and {@code failed} come from their reports. One node of
 * a cluster runs them; another takes over when it stops.
 */
@GatewayTest(settings = {
    "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200",
    "GATEWAY_RESERVATIONS_SANDBOX_INSTANCE_READY_MS=300"})
class DemoAgentsTest {
  private static final String HOST = "host_osl_4090_01";

  @Test
  void aDemoInstanceRunsAndFailsThroughItsHostsAgent(TestGateway node) {
    assertTrue(node.gateway().runsDemoAgents());
    assertEquals(6L, count(node, "SELECT count(*) FROM host_credentials WHERE revoked_at IS NULL"
        + " AND host_id IN (SELECT id FROM hosts WHERE enrolled_at IS NOT NULL AND public_address LIKE '%.sandbox-hosts.invalid')"),
        "each demo host has one live credential, issued for its agent");
    eventually("the demo host's agent heartbeats", () -> count(node,
        "SELECT count(*) FROM host_heartbeats WHERE host_id = '" + HOST + "' AND last_at > now() - interval '15 seconds'"),
        n -> n == 1L);

    ApiClient renter = ApiClient.signIn(node, "dana");
    renter.saveCard("4242424242424242");
    String id = renter.reserve("off_osl_4090_01", 2, null, 2, "saved_card").getString("id");
    JsonObject ssh = renter.awaitStatus(id, "running").getJsonObject("ssh");

    Row instance = node.sql("SELECT state, ssh_host, ssh_port, ssh_user, host_key_fingerprint, reported_at, desired"
        + " FROM instances WHERE reservation_id = '" + id + "'").iterator().next();
    assertEquals("running", instance.getString("state"), "the agent reported it");
    assertEquals("host-osl-4090-01.sandbox-hosts.invalid", instance.getString("ssh_host"));
    assertEquals("ssh -p " + instance.getInteger("ssh_port") + " " + instance.getString("ssh_user") + "@"
        + instance.getString("ssh_host"), ssh.getString("command"), "the endpoint is the agent's");
    assertEquals(instance.getString("host_key_fingerprint"), ssh.getString("host_key_fingerprint"));
    assertTrue(ssh.getString("known_hosts").startsWith("[host-osl-4090-01.sandbox-hosts.invalid]:"
        + instance.getInteger("ssh_port") + " ssh-ed25519 "), ssh.getString("known_hosts"));

    HttpResponse<String> failed = failInstance(node, id);
    assertEquals(200, failed.statusCode(), failed.body());
    JsonObject after = renter.await(id, r -> "failed".equals(r.getString("status")), "failed");
    assertEquals("failed", after.getString("status"));
    Row report = node.sql("SELECT state, reason FROM instances WHERE reservation_id = '" + id + "'").iterator().next();
    assertEquals(List.of("failed", "runtime_error"), List.of(report.getString("state"), report.getString("reason")),
        "the failure arrived as the agent's report");
    assertEquals(1L, count(node, "SELECT count(*) FROM reservation_events WHERE reservation_id = '" + id
        + "' AND to_status = 'failed' AND cause LIKE '%host agent: runtime_error%'"));
    Eventually.eventually("the failed instance left its host's desired state", () -> node.sql(
        "SELECT desired FROM instances WHERE reservation_id = '" + id + "'").iterator().next().getBoolean(0),
        desired -> !desired);

    assertEquals(404, failInstance(node, "rsv_nosuchinstance").statusCode());
  }

  @Test
  void oneNodeOfAClusterRunsTheDemoAgentsAndAnotherTakesOverWhenItStops() {
    List<Map<String, String>> members = TestGateway.twoNodeCluster();
    members.forEach(settings -> {
      settings.put("GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS", "200");
      settings.put("GATEWAY_RESERVATIONS_SANDBOX_INSTANCE_READY_MS", "0");
    });
    TestGateway a = TestGateway.start(members.get(0));
    boolean aStopped = false;
    try (TestGateway b = TestGateway.start(members.get(1))) {
      assertTrue(a.gateway().runsDemoAgents(), "the first node runs them");
      assertTrue(!b.gateway().runsDemoAgents(), "and only it");
      String before = credentialOf(a);

      a.close();
      aStopped = true;
      eventually("node b took over", () -> b.gateway().runsDemoAgents(), Boolean::booleanValue);
      // node b marks itself the runner before its agents' new credential is committed
      eventually("a new credential, the old one revoked", () -> credentialOf(b), now -> !now.equals(before));
      ApiClient renter = ApiClient.signIn(b, "erin");
      renter.saveCard("4242424242424242");
      String id = renter.reserve("off_osl_5090_01", 1, null, 1, "saved_card").getString("id");
      renter.awaitStatus(id, "running");
      assertEquals(200, failInstance(b, id).statusCode(), "the agents on node b fail it");
    } finally {
      if (!aStopped) {
        a.close();
      }
    }
  }

  private static String credentialOf(TestGateway node) {
    return node.sql("SELECT id FROM host_credentials WHERE host_id = '" + HOST + "' AND revoked_at IS NULL")
        .iterator().next().getString(0);
  }

  private static HttpResponse<String> failInstance(TestGateway node, String id) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url("/sandbox/hosts/_test/instances/" + id + "/fail")))
        .header("Authorization", "Bearer " + node.gateway().sandboxFaultControlKey())
        .POST(HttpRequest.BodyPublishers.noBody()));
  }

  private static long count(TestGateway node, String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }
}
