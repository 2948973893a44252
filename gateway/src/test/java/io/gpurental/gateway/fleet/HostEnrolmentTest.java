package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.auth.tokens.TokenSecrets;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The operator enrols a host, its agent reports the facts, activation puts it in the catalog. */
@GatewayTest(settings = TestGateway.LONG_SEARCH_CACHE)
class HostEnrolmentTest {
  private static final String H100 = "NVIDIA H100 80GB HBM3";
  private static final JsonObject PRICE = new JsonObject().put("price_per_gpu_hour",
      new JsonObject().put("amount", 250).put("currency", "usd"));

  @Test
  void enrolStoresTheFactsAndActivationListsTheOffer(TestGateway node, @SignedIn("operator") ApiClient operator) {
    JsonObject host = createHost(operator);
    assertEquals("enrolling", host.getString("status"));
    String token = host.getString("enrollment_token");
    assertTrue(token.startsWith("gpr_enr_"), token);
    assertTrue(host.getString("agent_command").startsWith("GPR_AGENT_ENROLLMENT_TOKEN=" + token + " java -jar"),
        host.getString("agent_command"));

    FakeAgent agent = FakeAgent.enrol(node, token, H100, 4);
    assertEquals(host.getString("id"), agent.hostId());
    assertTrue(agent.credential().startsWith("gpr_host_"));
    JsonObject pending = operator.json("/api/v1/operator/hosts/" + agent.hostId());
    assertEquals("pending", pending.getString("status"));
    assertEquals("AMD EPYC 9354 32-Core Processor", pending.getJsonObject("facts").getString("cpu_model"));
    assertEquals("0.1.0", pending.getString("agent_version"));
    JsonObject gpu = pending.getJsonArray("gpus").getJsonObject(0);
    assertEquals("H100 SXM", gpu.getString("model"), "recognised from the nvidia-smi name");
    assertEquals("GPU-0-3b6c5a1e-test", gpu.getString("uuid"));
    assertEquals(H100, gpu.getString("nvidia_smi_name"));
    assertEquals(1L, count(node, "SELECT count(*) FROM host_facts WHERE host_id = '" + agent.hostId()
        + "' AND driver_version = '550.54.15' AND cuda_version = '12.4'"));
    assertEquals(0L, count(node, "SELECT count(*) FROM host_credentials WHERE secret_hash = sha256('"
        + agent.credential() + "'::bytea) AND revoked_at IS NULL") - 1, "stored as its SHA-256 only");
    assertTrue(pending.getJsonArray("offers").isEmpty());

    HttpResponse<String> activated = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/activate", PRICE);
    assertEquals(200, activated.statusCode(), activated.body());
    JsonObject active = new JsonObject(activated.body());
    assertEquals("active", active.getString("status"));
    String offerId = active.getJsonArray("offers").getString(0);
    JsonObject offer = operator.json("/api/v1/offers/" + offerId);
    assertEquals(new JsonArray().add(1).add(2).add(4), offer.getJsonArray("gpu_counts"), "1, 2, 4, 8 up to 4 GPUs");
    listedEventually(operator, "", offerId, true);
    assertEquals(3L, count(node, "SELECT count(*) FROM audit_log WHERE actor LIKE 'account:%' AND action IN"
        + " ('host.created', 'host.activated', 'offer.opened') AND (target = '" + agent.hostId() + "' OR target = '"
        + offerId + "')"));

    HttpResponse<String> deactivated = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/deactivate", null);
    assertEquals(200, deactivated.statusCode(), deactivated.body());
    assertEquals("deactivated", new JsonObject(deactivated.body()).getString("status"));
    listedEventually(operator, "", offerId, false);
  }

  @Test
  void wrongReusedOrExpiredEnrolmentTokensAre401(TestGateway node, @SignedIn("operator") ApiClient operator) {
    assertEquals(401, FakeAgent.tryEnrol(node, TokenSecrets.generate(TokenSecrets.ENROLMENT_PREFIX), H100, 1)
        .statusCode(), "unknown");
    String token = createHost(operator).getString("enrollment_token");
    FakeAgent.enrol(node, token, H100, 1);
    assertEquals(401, FakeAgent.tryEnrol(node, token, H100, 1).statusCode(), "used");

    JsonObject expiring = createHost(operator);
    node.sql("UPDATE enrolment_tokens SET expires_at = now() - interval '1 second' WHERE host_id = '"
        + expiring.getString("id") + "'");
    HttpResponse<String> expired = FakeAgent.tryEnrol(node, expiring.getString("enrollment_token"), H100, 1);
    assertEquals(401, expired.statusCode(), expired.body());
    assertEquals("enrolling", operator.json("/api/v1/operator/hosts/" + expiring.getString("id")).getString("status"));
  }

  @Test
  void aNewEnrolmentTokenReplacesTheOldOneUntilTheAgentEnrols(TestGateway node,
      @SignedIn("operator") ApiClient operator) {
    JsonObject host = createHost(operator);
    String hostId = host.getString("id");
    node.sql("UPDATE enrolment_tokens SET expires_at = now() - interval '1 second' WHERE host_id = '" + hostId + "'");
    HttpResponse<String> reissued = operator.post("/api/v1/operator/hosts/" + hostId + "/enrollment-token", null);
    assertEquals(200, reissued.statusCode(), reissued.body());
    String token = new JsonObject(reissued.body()).getString("enrollment_token");
    assertTrue(new JsonObject(reissued.body()).getString("agent_command").startsWith("GPR_AGENT_ENROLLMENT_TOKEN=" + token));
    HttpResponse<String> again = operator.post("/api/v1/operator/hosts/" + hostId + "/enrollment-token", null);
    assertEquals(200, again.statusCode(), again.body());
    assertEquals(401, FakeAgent.tryEnrol(node, token, H100, 1).statusCode(), "a replaced token stops working");

    FakeAgent agent = FakeAgent.enrol(node, new JsonObject(again.body()).getString("enrollment_token"), H100, 1);
    assertEquals(hostId, agent.hostId());
    HttpResponse<String> enrolled = operator.post("/api/v1/operator/hosts/" + hostId + "/enrollment-token", null);
    assertEquals(409, enrolled.statusCode(), enrolled.body());
    assertTrue(enrolled.body().contains("credential/rotate"), enrolled.body());
    assertEquals(2, node.sql("SELECT 1 FROM audit_log WHERE action = 'host.enrollment_token_reissued' AND target = '"
        + hostId + "' AND after->>'token_prefix' IS NOT NULL").size());
    assertEquals(404, operator.post("/api/v1/operator/hosts/host_nope/enrollment-token", null).statusCode());
  }

  @Test
  void aRevokedCredentialIs401AndARotatedOneReplacesIt(TestGateway node, @SignedIn("operator") ApiClient operator) {
    FakeAgent agent = FakeAgent.enrol(node, createHost(operator).getString("enrollment_token"), H100, 1);
    assertEquals(200, agent.heartbeat().statusCode());
    String old = agent.credential();
    HttpResponse<String> rotated = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/credential/rotate", null);
    assertEquals(200, rotated.statusCode(), rotated.body());
    assertEquals(401, agent.heartbeat().statusCode(), "the old credential stops at once");
    agent.useCredential(new JsonObject(rotated.body()).getString("credential"));
    assertEquals(200, agent.heartbeat().statusCode());
    assertTrue(!old.equals(agent.credential()));

    HttpResponse<String> revoked = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/credential/revoke", null);
    assertEquals(204, revoked.statusCode(), revoked.body());
    HttpResponse<String> refused = agent.heartbeat();
    assertEquals(401, refused.statusCode(), refused.body());
  }

  @Test
  void agentRoutesAndOtherRoutesDoNotAcceptEachOthersCredentials(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("alice") ApiClient renter) {
    FakeAgent agent = FakeAgent.enrol(node, createHost(operator).getString("enrollment_token"), H100, 1);
    assertEquals(401, agent.send("GET", "/api/v1/reservations", null).statusCode(), "a host is no renter");
    assertEquals(401, agent.send("GET", "/api/v1/offers", null).statusCode(), "not even on public routes");
    assertEquals(401, agent.send("GET", "/api/v1/operator/hosts", null).statusCode());
    assertEquals(401, renter.post("/api/v1/agent/heartbeat", new JsonObject().put("agent_version", "x")).statusCode());
    assertEquals(401, operator.get("/api/v1/agent/desired-state?wait_seconds=0").statusCode(), "operators neither");
    assertEquals(401, node.get("/api/v1/agent/desired-state?wait_seconds=0").statusCode(), "nor anonymous callers");
    HttpResponse<String> enrolmentElsewhere = node.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create(node.url("/api/v1/reservations")))
        .header("Authorization", "Bearer " + createHost(operator).getString("enrollment_token")));
    assertEquals(401, enrolmentElsewhere.statusCode(), enrolmentElsewhere.body());
    assertEquals(403, renter.get("/api/v1/operator/hosts").statusCode(), "operator routes are for operators");
  }

  @Test
  void anUnknownGpuNameBlocksActivationUntilItIsMapped(TestGateway node, @SignedIn("operator") ApiClient operator) {
    String name = "NVIDIA RTX PRO 6000 Blackwell Server Edition";
    FakeAgent agent = FakeAgent.enrol(node, createHost(operator).getString("enrollment_token"), name, 2);
    JsonObject pending = operator.json("/api/v1/operator/hosts/" + agent.hostId());
    assertEquals(new JsonArray().add(name), pending.getJsonArray("unknown_gpu_names"));

    HttpResponse<String> refused = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/activate", PRICE);
    assertEquals(409, refused.statusCode(), refused.body());
    JsonObject problem = new JsonObject(refused.body());
    assertTrue(problem.getString("detail").contains(name), problem.encode());
    assertEquals(new JsonArray().add(name), problem.getJsonArray("unknown_gpu_names"));

    HttpResponse<String> mapped = operator.post("/api/v1/operator/gpu-names", new JsonObject()
        .put("nvidia_smi_name", name).put("gpu_model", "RTX PRO 6000").put("vram_gb", 96).put("architecture", "Blackwell"));
    assertEquals(204, mapped.statusCode(), mapped.body());
    HttpResponse<String> noPrice = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/activate", null);
    assertEquals(409, noPrice.statusCode(), "a new model has no default price: " + noPrice.body());
    HttpResponse<String> activated = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/activate", PRICE);
    assertEquals(200, activated.statusCode(), activated.body());
    assertEquals("RTX PRO 6000", new JsonObject(activated.body()).getJsonArray("gpus").getJsonObject(0).getString("model"));
    eventually("one RTX PRO 6000 offer listed", TestGateway.AT_ONCE,
        () -> offerIds(operator, "&gpu_model=RTX%20PRO%206000"), offers -> offers.size() == 1);
  }

  @Test
  void aHostWhoseLinkSpeedTheKernelDoesNotTellEnrolsAndIsListed(TestGateway node,
      @SignedIn("operator") ApiClient operator) {
    JsonObject host = createHost(operator);
    JsonObject facts = FakeAgent.facts(H100, 1);
    facts.putNull("net_gbps");
    HttpResponse<String> enrolled = node.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create(node.url("/api/v1/agent/enroll")))
        .header("Authorization", "Bearer " + host.getString("enrollment_token"))
        .header("Content-Type", "application/json")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(new JsonObject().put("agent_version", "0.1.0")
            .put("facts", facts).encode())));
    assertEquals(201, enrolled.statusCode(), "VMs and containers have no link speed: " + enrolled.body());
    HttpResponse<String> activated = operator.post("/api/v1/operator/hosts/" + host.getString("id") + "/activate", PRICE);
    assertEquals(200, activated.statusCode(), activated.body());
    String offerId = new JsonObject(activated.body()).getJsonArray("offers").getString(0);
    listedEventually(operator, "", offerId, true);
    assertTrue(operator.json("/api/v1/offers/" + offerId).getJsonObject("hardware").containsKey("net_gbps"));
    assertEquals(null, operator.json("/api/v1/offers/" + offerId).getJsonObject("hardware").getInteger("net_gbps"));
  }

  static JsonObject createHost(ApiClient operator) {
    return FakeAgent.createHost(operator);
  }


  /**
   * The activation's or deactivation's event drops cached searches asynchronously, so a search
   * right after it may still be served from the cache; well within its (here long) lifetime.
   */
  private static void listedEventually(ApiClient client, String query, String offerId, boolean listed) {
    eventually(listed ? "listed in the catalog" : "out of the catalog", TestGateway.AT_ONCE,
        () -> offerIds(client, query), offers -> offers.contains(offerId) == listed);
  }

  static java.util.List<String> offerIds(ApiClient client, String query) {
    return client.json("/api/v1/offers?limit=100" + query).getJsonArray("data").stream()
        .map(o -> ((JsonObject) o).getString("id")).toList();
  }

  private static long count(TestGateway node, String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }
}
