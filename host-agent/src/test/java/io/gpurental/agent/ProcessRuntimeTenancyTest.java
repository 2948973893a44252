package io.gpurental.agent;

import static io.gpurental.agent.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One tenant after another on the process runtime, for real: the next tenant never gets the
 * last one's UID, what the last one left in shared places is gone, and a home prepared with a
 * symlinked {@code .ssh} cannot make the root agent write the renter's key somewhere else.
 */
class ProcessRuntimeTenancyTest {
  static final Duration WITHIN = Duration.ofSeconds(30);
  static final String GPU_0 = "GPU-5f3c1a2b-7d1e-4c2a-9b1f-0a1b2c3d4e01";

  @TempDir
  Path stateDir;
  @TempDir
  Path renter;
  Vertx vertx;
  FakeGateway gateway;
  HostAgent agent;
  final String suffix = Integer.toHexString(new Random().nextInt(0xfffff));
  final String first = "gprta" + suffix;
  final String second = "gprtb" + suffix;

  @BeforeEach
  void start() throws IOException {
    vertx = Vertx.vertx();
    gateway = new FakeGateway(vertx).start().await();
    assertEquals(0, ProcessRuntimeTest.run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key().toString()).exit());
    agent = HostAgent.start(vertx, new AgentOptions(gateway.url(), stateDir).runtime(RuntimeKind.PROCESS)
        .publicAddress("127.0.0.1").sshPorts(new PortRange(23500, 23599))
        .nvidiaSmi(AgentProtocolTest.STAND_IN.toString()).desiredStateWaitSeconds(2)
        .maxBackoff(Duration.ofSeconds(1)).enrollmentToken(FakeGateway.TOKEN)).await();
  }

  @AfterEach
  void cleanUp() throws IOException {
    agent.stop().await();
    vertx.close().await();
    for (String user : List.of(first, second)) {
      ProcessRuntimeTest.run("pkill", "-KILL", "-u", user);
      ProcessRuntimeTest.run("userdel", "-r", user);
      ProcessRuntimeTest.run("groupdel", user);
    }
  }

  @Test
  void theNextTenantNeverGetsTheLastOnesUidNorWhatItLeftBehind() throws Exception {
    JsonObject ssh = runInstance("rsv_tena", first);
    int firstUid = uid(first);
    Commands.Result left = login(first, ssh, "touch /tmp/gpr-left-$USER /var/tmp/gpr-left-$USER /dev/shm/gpr-left-$USER"
        + " && ipcmk -M 4096 >/dev/null && echo ok");
    assertEquals("ok", left.out().strip(), left.summary());
    assertTrue(Files.exists(Path.of("/dev/shm/gpr-left-" + first)));
    assertFalse(ipcOwnedBy(firstUid).isEmpty(), "the tenant made a shared memory segment");

    gateway.desire();
    eventually(WITHIN, "stopped", () -> gateway.statesOf("rsv_tena").contains("stopped"));
    for (String dir : List.of("/tmp", "/var/tmp", "/dev/shm")) {
      assertFalse(Files.exists(Path.of(dir, "gpr-left-" + first)), "swept from " + dir);
    }
    assertTrue(ipcOwnedBy(firstUid).isEmpty(), "its shared memory is removed");

    runInstance("rsv_tenb", second);
    assertNotEquals(firstUid, uid(second), "a UID is never given twice");
    assertTrue(uid(second) > firstUid);
  }

  @Test
  void aSymlinkedSshDirectoryInAHomeLeftBehindNeverRedirectsTheKey(@TempDir Path elsewhere) throws Exception {
    Path home = Path.of("/home", first);
    Files.createDirectories(home);
    Files.createSymbolicLink(home.resolve(".ssh"), elsewhere);

    JsonObject ssh = runInstance("rsv_tena", first);
    assertFalse(Files.exists(elsewhere.resolve("authorized_keys")), "the key went through the symlink");
    assertFalse(Files.isSymbolicLink(home.resolve(".ssh")));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home)), "home is private");
    Commands.Result login = login(first, ssh, "id -un");
    assertEquals(first, login.out().strip(), login.summary());
  }

  private JsonObject runInstance(String id, String user) throws IOException {
    gateway.desire(new JsonObject().put("id", id).put("user", user).put("ends_at", "2026-12-01T14:00:00Z")
        .put("ssh_public_key", Files.readString(renter.resolve("id_ed25519.pub")).strip())
        .put("gpus", new JsonArray().add(new JsonObject().put("index", 0).put("uuid", GPU_0))));
    eventually(WITHIN, id + " running", () -> gateway.statesOf(id).contains("running"));
    return gateway.lastReport(id, "running").getJsonObject("ssh");
  }

  private Commands.Result login(String user, JsonObject ssh, String command) throws IOException {
    int port = ssh.getInteger("port");
    Path knownHosts = renter.resolve("known_hosts");
    Files.writeString(knownHosts, "[127.0.0.1]:" + port + " " + ssh.getString("host_key") + "\n");
    return Commands.system().run(List.of("ssh", "-i", key().toString(), "-p", Integer.toString(port),
        "-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + knownHosts, "-o", "BatchMode=yes",
        "-o", "IdentitiesOnly=yes", "-o", "ConnectTimeout=5", "-l", user, "127.0.0.1", command), Duration.ofSeconds(20));
  }

  private Path key() {
    return renter.resolve("id_ed25519");
  }

  private static int uid(String user) throws IOException {
    return Integer.parseInt(ProcessRuntimeTest.run("id", "-u", user).out().strip());
  }

  private static List<String> ipcOwnedBy(int uid) throws IOException {
    return Files.readAllLines(Path.of("/proc/sysvipc/shm")).stream().skip(1)
        .map(line -> line.trim().split("\\s+")).filter(cells -> cells[7].equals(Integer.toString(uid)))
        .map(cells -> cells[1]).toList();
  }
}
