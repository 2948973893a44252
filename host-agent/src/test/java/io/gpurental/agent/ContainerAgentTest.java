package io.gpurental.agent;

import static io.gpurental.agent.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.protocol.SshEndpoint;
import io.gpurental.agent.runtime.container.PodmanService;
import io.gpurental.agent.runtime.container.Ssh;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole agent with {@code --runtime container} against a fake gateway and the real engine:
 * the Fleet III facts, a renter's image with a published port, the image cache in heartbeats, an
 * extension and an agent restart that keep the one container and its /workspace, and the end.
 */
class ContainerAgentTest {
  static final Duration WITHIN = Duration.ofSeconds(60);
  static PodmanService podman;
  static Vertx vertx;
  static Ssh renter;
  static io.gpurental.agent.runtime.PortRange ports = PodmanService.freePorts(50);

  @BeforeAll
  static void engine() throws IOException {
    podman = new PodmanService(1);
    vertx = Vertx.vertx();
    renter = new Ssh(Files.createDirectories(podman.dir.resolve("renter")));
  }

  @AfterAll
  static void close() throws IOException {
    try {
      podman.sweep(podman.runtime(vertx, "agent-state", ports));
    } finally {
      vertx.close().await();
      podman.close();
    }
  }

  AgentOptions options(FakeGateway gateway, Path stateDir) {
    return new AgentOptions(gateway.url(), stateDir).runtime(RuntimeKind.CONTAINER)
        .engineSocket(podman.socket).containerScope("test-" + podman.run).publicAddress("127.0.0.1").sshPorts(ports)
        .nvidiaSmi(AgentProtocolTest.STAND_IN.toString()).desiredStateWaitSeconds(2).maxBackoff(Duration.ofSeconds(1))
        .ipmitool(stateDir.resolve("no-ipmitool").toString()).smartctl(stateDir.resolve("no-smartctl").toString());
  }

  JsonObject instance(String id, String endsAt) {
    return new JsonObject().put("id", id).put("user", "rsv_user").put("ends_at", endsAt)
        .put("ssh_public_key", renter.publicKey)
        .put("gpus", new JsonArray().add(new JsonObject().put("index", 0).put("uuid", podman.gpuUuids.get(0))))
        .put("image", new JsonObject().put("ref", PodmanService.IMAGE).put("ports", new JsonArray().add(8888)))
        .put("limits", new JsonObject().put("cpus", 1).put("memory_mib", 512).put("disk_gb", 10)
            .put("pids", 256).put("shm_mib", 64));
  }

  @Test
  void theAgentRunsARentersImageKeepsItAcrossExtensionAndRestartAndRemovesIt() throws Exception {
    FakeGateway gateway = new FakeGateway(vertx).start().await();
    Path stateDir = podman.dir.resolve("agent-state");
    HostAgent agent = HostAgent.start(vertx, options(gateway, stateDir).enrollmentToken(FakeGateway.TOKEN)).await();
    JsonObject facts = gateway.enrolments.get(0).getJsonObject("facts");
    assertEquals("container", facts.getString("runtime"));
    assertTrue(facts.getString("engine").startsWith("podman 4."), facts.encode());
    assertTrue(facts.containsKey("container_toolkit_version") && facts.getValue("container_toolkit_version") == null,
        "no nvidia-ctk on this machine: " + facts.encode());

    String id = "rsv_" + podman.run + "agent";
    long began = System.nanoTime();
    gateway.desire(instance(id, "2026-12-01T14:00:00Z"));
    eventually(WITHIN, "running", () -> gateway.statesOf(id).contains("running"));
    long running = System.nanoTime();
    JsonObject report = gateway.lastReport(id, "running");
    SshEndpoint ssh = endpoint(report.getJsonObject("ssh"));
    assertEquals("root", renter.run(ssh, "echo kept > /workspace/marker; whoami").out().strip());
    System.out.printf("agent, cached image: desired->running report %d ms, ->ssh login done %d ms%n",
        (running - began) / 1_000_000, (System.nanoTime() - began) / 1_000_000);
    JsonObject port = report.getJsonArray("ports").getJsonObject(0);
    assertEquals(8888, port.getInteger("container_port"));
    assertTrue(port.getInteger("host_port") >= ports.first() && port.getInteger("host_port") <= ports.last(), report.encode());
    assertNull(gateway.lastReport(id, "failed"));
    String container = containerOf(id);

    eventually(WITHIN, "the image cache in a heartbeat", () -> gateway.heartbeats.stream()
        .anyMatch(h -> h.getJsonArray("images", new JsonArray()).stream()
            .anyMatch(i -> PodmanService.IMAGE.equals(((JsonObject) i).getString("ref")))));
    JsonObject enrolled = facts.getJsonObject("container_isolation");
    assertEquals(new JsonObject().put("user_namespaces", true).putNull("disk_limit").put("warnings", new JsonArray()),
        enrolled, "Podman: --userns=auto per container; the disk limit is not known before a create");
    // this machine's Podman keeps its store on ext4, where --storage-opt size is not supported
    eventually(WITHIN, "the disk limit's absence in a heartbeat", () -> gateway.heartbeats.stream()
        .map(h -> h.getJsonObject("container_isolation")).anyMatch(i -> i != null
            && Boolean.FALSE.equals(i.getBoolean("disk_limit"))
            && i.getJsonArray("warnings").encode().contains("without a disk limit")));

    gateway.desire(instance(id, "2026-12-01T16:00:00Z")); // an extension
    int reportsBefore = gateway.reports.size();
    eventually(WITHIN, "a re-report after the extension", () -> gateway.reports.size() > reportsBefore);
    agent.stop().await();
    HostAgent restarted = HostAgent.start(vertx, options(gateway, stateDir)).await();
    int afterRestart = gateway.reports.size();
    eventually(WITHIN, "a running re-report", () -> gateway.reports.subList(afterRestart, gateway.reports.size())
        .stream().anyMatch(r -> r.getString("state").equals("running")));
    assertTrue(gateway.reports.subList(afterRestart, gateway.reports.size()).stream()
        .noneMatch(r -> r.getString("state").equals("preparing")), "started again after the restart");
    assertEquals(container, containerOf(id), "the same one container, adopted by label");
    assertEquals(ssh, endpoint(gateway.lastReport(id, "running").getJsonObject("ssh")));
    assertEquals("kept", renter.run(ssh, "cat /workspace/marker").out().strip());

    gateway.desire();
    eventually(WITHIN, "stopped", () -> gateway.statesOf(id).contains("stopped"));
    assertEquals("", containerOf(id));
    assertEquals("", PodmanService.podman("volume", "ls", "-q", "--filter", "label=io.gpurental.instance=" + id));
    assertEquals("", PodmanService.podman("network", "ls", "-q", "--filter", "label=io.gpurental.instance=" + id));
    restarted.stop().await();
    gateway.close().await();
  }

  /**
   * Five starts through the whole agent with a cached image: the gateway's desired state → the
   * `running` report, and → a finished ssh login (through the login wrapper, with the session's
   * environment). The bound asserted is loose: this machine's two cores are shared.
   */
  @Test
  void startTimesThroughTheAgent() throws Exception {
    FakeGateway gateway = new FakeGateway(vertx).start().await();
    HostAgent agent = HostAgent.start(vertx, options(gateway, podman.dir.resolve("timing-state"))
        .enrollmentToken(FakeGateway.TOKEN)).await();
    List<Long> toRunning = new ArrayList<>();
    List<Long> toLogin = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String id = "rsv_" + podman.run + "time" + i;
      long began = System.nanoTime();
      gateway.desire(instance(id, "2026-12-01T14:00:00Z"));
      eventually(WITHIN, "running", () -> gateway.statesOf(id).contains("running"));
      toRunning.add((System.nanoTime() - began) / 1_000_000);
      SshEndpoint ssh = endpoint(gateway.lastReport(id, "running").getJsonObject("ssh"));
      assertEquals("root", renter.run(ssh, "whoami").out().strip());
      toLogin.add((System.nanoTime() - began) / 1_000_000);
      gateway.desire();
      eventually(WITHIN, "stopped", () -> gateway.statesOf(id).contains("stopped"));
    }
    System.out.printf("agent, cached image, 5 starts: desired->running report %s ms, ->ssh login done %s ms%n",
        toRunning, toLogin);
    assertTrue(toLogin.stream().sorted().toList().get(2) < 10_000, toLogin.toString());
    agent.stop().await();
    gateway.close().await();
  }

  static String containerOf(String id) throws IOException {
    return PodmanService.podman("ps", "-a", "-q", "--no-trunc", "--filter", "label=io.gpurental.instance=" + id);
  }

  static SshEndpoint endpoint(JsonObject ssh) {
    return new SshEndpoint(ssh.getString("host"), ssh.getInteger("port"), ssh.getString("user"),
        ssh.getString("host_key_fingerprint"), ssh.getString("host_key"));
  }
}
