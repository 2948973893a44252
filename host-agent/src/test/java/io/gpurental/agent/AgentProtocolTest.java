package io.gpurental.agent;

import static io.gpurental.agent.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.runtime.SshKeys;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent against a fake gateway, with the simulated runtime. */
class AgentProtocolTest {
  static final Duration WITHIN = Duration.ofSeconds(10);
  static final Path STAND_IN = Path.of("src/test/resources/nvidia-smi/standin-2gpu").toAbsolutePath();
  static final Path TOOLS = Path.of("src/test/resources/host-tools").toAbsolutePath();

  @TempDir
  Path stateDir;
  Vertx vertx;
  FakeGateway gateway;

  @BeforeEach
  void startGateway() {
    vertx = Vertx.vertx();
    gateway = new FakeGateway(vertx).start().await();
  }

  @AfterEach
  void close() {
    vertx.close().await();
  }

  AgentOptions options() {
    return new AgentOptions(gateway.url(), stateDir).runtime(RuntimeKind.SIMULATED)
        .simulatedRunningDelay(Duration.ofMillis(50)).nvidiaSmi(STAND_IN.toString())
        .desiredStateWaitSeconds(2).maxBackoff(Duration.ofSeconds(1))
        .ipmitool(stateDir.resolve("no-ipmitool").toString()).smartctl(stateDir.resolve("no-smartctl").toString());
  }

  static JsonObject instance(String id) {
    return new JsonObject().put("id", id).put("user", id).put("ends_at", "2026-12-01T14:00:00Z")
        .put("ssh_public_key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29v renter")
        .put("gpus", new JsonArray().add(new JsonObject().put("index", 1)
            .put("uuid", "GPU-5f3c1a2b-7d1e-4c2a-9b1f-0a1b2c3d4e02")));
  }

  @Test
  void enrolsHeartbeatsAndRunsWhatIsDesired() throws Exception {
    HostAgent agent = HostAgent.start(vertx, options().enrollmentToken(FakeGateway.TOKEN)).await();

    JsonObject facts = gateway.enrolments.get(0).getJsonObject("facts");
    assertEquals(2, facts.getJsonArray("gpus").size());
    assertEquals("NVIDIA H100 80GB HBM3", facts.getJsonArray("gpus").getJsonObject(0).getString("name"));
    assertEquals("590.48.01", facts.getString("driver_version"));
    assertEquals("13.1", facts.getString("cuda_version"));
    Path credential = stateDir.resolve("credential");
    assertEquals(FakeGateway.CREDENTIAL, Files.readString(credential).strip());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(credential)));
    assertEquals(FakeGateway.HOST_ID, Files.readString(stateDir.resolve("host_id")).strip());

    eventually(WITHIN, "a heartbeat", () -> !gateway.heartbeats.isEmpty());
    JsonObject gpu = gateway.heartbeats.get(0).getJsonObject("telemetry").getJsonArray("gpus").getJsonObject(1);
    assertTrue(gpu.containsKey("utilization_pct") && gpu.getValue("utilization_pct") == null, "[N/A] is null");
    assertEquals(true, gpu.getBoolean("remapped_rows_failure"));

    gateway.desire(instance("rsv_one"));
    eventually(WITHIN, "running", () -> gateway.statesOf("rsv_one").contains("running"));
    assertEquals(List.of("preparing", "running"), gateway.statesOf("rsv_one").subList(0, 2));
    JsonObject ssh = gateway.lastReport("rsv_one", "running").getJsonObject("ssh");
    assertEquals("rsv_one", ssh.getString("user"));
    assertEquals(SshKeys.fingerprint(ssh.getString("host_key")), ssh.getString("host_key_fingerprint"));

    gateway.desire();
    eventually(WITHIN, "stopped", () -> gateway.statesOf("rsv_one").contains("stopped"));
    assertEquals(1, gateway.statesOf("rsv_one").stream().filter("preparing"::equals).count(), "started once");
    agent.stop().await();

    // a later start needs only the gateway and the state directory
    int before = gateway.heartbeats.size();
    HostAgent again = HostAgent.start(vertx, options()).await();
    eventually(WITHIN, "a heartbeat with the saved credential", () -> gateway.heartbeats.size() > before);
    assertEquals(1, gateway.enrolments.size());
    again.stop().await();
  }

  @Test
  void aFailedInstanceIsReportedWithItsReasonAndNotStartedAgain() {
    HostAgent agent = HostAgent.start(vertx, options().enrollmentToken(FakeGateway.TOKEN)).await();
    gateway.desire(instance("rsv_two"));
    eventually(WITHIN, "running", () -> gateway.statesOf("rsv_two").contains("running"));

    assertEquals(false, agent.fail("rsv_nothere", "gpu_unavailable").await(), "not an instance of this agent");
    assertEquals(true, agent.fail("rsv_two", "gpu_unavailable").await());
    eventually(WITHIN, "failed", () -> gateway.statesOf("rsv_two").contains("failed"));
    assertEquals("gpu_unavailable", gateway.lastReport("rsv_two", "failed").getString("reason"));
    gateway.desire(instance("rsv_two")); // still desired: a new version, the same list
    eventually(WITHIN, "the failure re-reported", () -> gateway.statesOf("rsv_two").stream()
        .filter("failed"::equals).count() >= 2);
    assertEquals(1, gateway.statesOf("rsv_two").stream().filter("preparing"::equals).count());
  }

  @Test
  void aRevokedCredentialStopsTheAgent() throws Exception {
    HostAgent agent = HostAgent.start(vertx, options().enrollmentToken(FakeGateway.TOKEN)).await();
    eventually(WITHIN, "a heartbeat", () -> !gateway.heartbeats.isEmpty());

    gateway.revoke();
    String reason = agent.terminated().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertTrue(reason.contains("401"), reason);
  }

  @Test
  void aRefusedEnrolmentTokenFailsTheStart() {
    Exception e = assertThrows(Exception.class,
        () -> HostAgent.start(vertx, options().enrollmentToken("gpr_enr_wrong")).await());
    assertTrue(e.getMessage().contains("refused the enrolment token"), e.getMessage());
    assertTrue(Files.notExists(stateDir.resolve("credential")));
  }

  @Test
  void heartbeatsCarryTheBmcsPowerSmartHealthAndThePreviousRoundTrip() {
    HostAgent.start(vertx, options().enrollmentToken(FakeGateway.TOKEN)
        .ipmitool(TOOLS.resolve("ipmitool-standin").toString()).smartctl(TOOLS.resolve("smartctl-standin").toString())).await();
    eventually(WITHIN, "a heartbeat after SMART was read", () -> gateway.heartbeats.stream()
        .anyMatch(h -> "passed".equals(h.getJsonObject("telemetry").getString("disk_health"))));
    JsonObject first = gateway.heartbeats.get(0).getJsonObject("telemetry");
    assertEquals(312.0, first.getDouble("power_w"));
    assertEquals("measured", first.getString("power_source"));
    assertTrue(first.containsKey("rtt_ms") && first.getValue("rtt_ms") == null, "no round trip before the first");
    eventually(WITHIN, "a second heartbeat", () -> gateway.heartbeats.size() >= 2);
    Long rtt = gateway.heartbeats.get(1).getJsonObject("telemetry").getLong("rtt_ms");
    assertTrue(rtt != null && rtt >= 0 && rtt < WITHIN.toMillis(), "the first heartbeat's round trip: " + rtt);
  }

  @Test
  void withoutABmcThePowerIsTheGpusPlusTheBaseLoad() {
    HostAgent.start(vertx, options().enrollmentToken(FakeGateway.TOKEN).baseLoadWatts(100)).await();
    eventually(WITHIN, "a heartbeat", () -> !gateway.heartbeats.isEmpty());
    JsonObject telemetry = gateway.heartbeats.get(0).getJsonObject("telemetry");
    assertEquals(100 + 69.85 + 71.15, telemetry.getDouble("power_w"), 0.05);
    assertEquals("estimated", telemetry.getString("power_source"));
    assertTrue(telemetry.containsKey("disk_health") && telemetry.getValue("disk_health") == null, "no smartctl: unknown");
  }
}
