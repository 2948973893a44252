package io.gpurental.agent;

import static io.gpurental.agent.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.PortRange;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process runtime for real (root, Debian's openssh-server): a Unix user and its own sshd, a
 * real ssh login with the renter's key that sees exactly its GPUs, adoption across an agent
 * restart, and nothing left of the user at the end.
 */
class ProcessRuntimeTest {
  static final Duration WITHIN = Duration.ofSeconds(30);
  static final String GPU_0 = "GPU-5f3c1a2b-7d1e-4c2a-9b1f-0a1b2c3d4e01";
  static final String GPU_1 = "GPU-5f3c1a2b-7d1e-4c2a-9b1f-0a1b2c3d4e02";

  @TempDir
  Path stateDir;
  @TempDir
  Path renter;
  Vertx vertx;
  FakeGateway gateway;
  final String user = "gprtest" + Integer.toHexString(new Random().nextInt(0xfffff));

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    gateway = new FakeGateway(vertx).start().await();
  }

  @AfterEach
  void cleanUp() throws IOException {
    vertx.close().await();
    // whatever a failed assertion left behind: the instance's sshd, the user's processes, the user
    Path pidFile = stateDir.resolve("instances/rsv_proc1/sshd.pid");
    if (Files.exists(pidFile)) {
      ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).ifPresent(ProcessHandle::destroyForcibly);
    }
    run("pkill", "-KILL", "-u", user);
    run("userdel", "-r", user);
  }

  AgentOptions options() {
    return new AgentOptions(gateway.url(), stateDir).runtime(RuntimeKind.PROCESS).publicAddress("127.0.0.1")
        .sshPorts(new PortRange(23400, 23499)).nvidiaSmi(AgentProtocolTest.STAND_IN.toString())
        .desiredStateWaitSeconds(2).maxBackoff(Duration.ofSeconds(1));
  }

  @Test
  void aRenterLogsInSeesItsGpusAndLeavesNoTrace() throws Exception {
    Path key = renter.resolve("id_ed25519");
    assertEquals(0, run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString()).exit());
    JsonObject instance = new JsonObject().put("id", "rsv_proc1").put("user", user)
        .put("ends_at", "2026-12-01T14:00:00Z").put("ssh_public_key", Files.readString(renter.resolve("id_ed25519.pub")).strip())
        .put("gpus", new JsonArray().add(gpu(0, GPU_0)).add(gpu(1, GPU_1)));
    HostAgent agent = HostAgent.start(vertx, options().enrollmentToken(FakeGateway.TOKEN)).await();

    long desiredAt = System.nanoTime();
    gateway.desire(instance);
    eventually(WITHIN, "running", () -> gateway.statesOf("rsv_proc1").contains("running"));
    System.out.printf("process runtime: desired -> running report in %d ms%n", (System.nanoTime() - desiredAt) / 1_000_000);
    JsonObject ssh = gateway.lastReport("rsv_proc1", "running").getJsonObject("ssh");
    int port = ssh.getInteger("port");
    Path knownHosts = renter.resolve("known_hosts");
    Files.writeString(knownHosts, "[127.0.0.1]:" + port + " " + ssh.getString("host_key") + "\n");
    Files.writeString(renter.resolve("host_key.pub"), ssh.getString("host_key") + "\n");
    assertTrue(run("ssh-keygen", "-l", "-f", renter.resolve("host_key.pub").toString()).out()
        .contains(ssh.getString("host_key_fingerprint") + " "), "the fingerprint ssh-keygen -l prints");

    Commands.Result login = ssh(key, knownHosts, port, "echo $CUDA_VISIBLE_DEVICES $NVIDIA_VISIBLE_DEVICES");
    assertEquals(0, login.exit(), login.summary());
    assertEquals(GPU_0 + "," + GPU_1 + " " + GPU_0 + "," + GPU_1, login.out().strip());
    String sshdPid = Files.readString(stateDir.resolve("instances/rsv_proc1/sshd.pid")).strip();

    // agent restart: the instance is adopted, not started again
    agent.stop().await();
    int reportsBefore = gateway.reports.size();
    HostAgent restarted = HostAgent.start(vertx, options()).await();
    eventually(WITHIN, "re-reported running", () -> gateway.reports.subList(reportsBefore, gateway.reports.size())
        .stream().anyMatch(r -> r.getString("state").equals("running")));
    assertEquals(1, gateway.statesOf("rsv_proc1").stream().filter("preparing"::equals).count(), "started once");
    assertEquals(port, gateway.lastReport("rsv_proc1", "running").getJsonObject("ssh").getInteger("port"));
    assertEquals(sshdPid, Files.readString(stateDir.resolve("instances/rsv_proc1/sshd.pid")).strip());
    assertEquals(0, ssh(key, knownHosts, port, "true").exit());

    // the end: no login, no user, no home, no files
    gateway.desire();
    eventually(WITHIN, "stopped", () -> gateway.statesOf("rsv_proc1").contains("stopped"));
    assertNotEquals(0, ssh(key, knownHosts, port, "true").exit());
    assertEquals(2, run("getent", "passwd", user).exit(), "the Unix user is gone");
    assertTrue(Files.notExists(Path.of("/home", user)));
    assertTrue(Files.notExists(stateDir.resolve("instances/rsv_proc1")));
    assertTrue(Files.notExists(Path.of("/proc", sshdPid)), "sshd is stopped");
    restarted.stop().await();
  }

  static JsonObject gpu(int index, String uuid) {
    return new JsonObject().put("index", index).put("uuid", uuid);
  }

  Commands.Result ssh(Path key, Path knownHosts, int port, String command) throws IOException {
    return Commands.system().run(List.of("ssh", "-i", key.toString(), "-p", Integer.toString(port),
        "-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + knownHosts, "-o", "BatchMode=yes",
        "-o", "IdentitiesOnly=yes", "-o", "ConnectTimeout=5", "-l", user,
        "127.0.0.1", command), Duration.ofSeconds(20));
  }

  static Commands.Result run(String... argv) throws IOException {
    return Commands.system().run(List.of(argv), Duration.ofSeconds(20));
  }
}
