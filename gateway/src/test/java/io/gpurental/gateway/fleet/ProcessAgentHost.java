package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.AgentOptions;
import io.gpurental.agent.HostAgent;
import io.gpurental.agent.RuntimeKind;
import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.PortRange;
import io.gpurental.gateway.testing.FreePorts;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * A GPU server for gateway tests: the real {@link HostAgent} with the process runtime (real Unix
 * users, a real sshd per instance) on this machine, as root, with the host agent's two-GPU
 * nvidia-smi stand-in. Closing it kills whatever its instances left behind (sshd, the users'
 * processes, the users), so a failed test leaves nothing on the machine.
 */
final class ProcessAgentHost implements AutoCloseable {
  /** The stand-in's GPUs (host-agent/src/test/resources/nvidia-smi/standin-2gpu.query-gpu.csv), by index. */
  static final List<String> GPU_UUIDS = List.of("GPU-5f3c1a2b-7d1e-4c2a-9b1f-0a1b2c3d4e01",
      "GPU-5f3c1a2b-7d1e-4c2a-9b1f-0a1b2c3d4e02");
  private static final Path STAND_IN = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
      .resolve("../host-agent/src/test/resources/nvidia-smi/standin-2gpu").normalize().toAbsolutePath();

  private final Vertx vertx = Vertx.vertx();
  private final String gatewayUrl;
  private final Path stateDir;
  private final PortRange sshPorts;
  private final Set<String> users = new LinkedHashSet<>();
  private final Path nvidiaSmi;
  private HostAgent agent;

  /**
   * The stand-in with both GPUs healthy: its own remapped-rows fixture fails the second GPU, and a
   * process-runtime host is rented whole, so one faulty GPU would make it unbookable.
   */
  private static Path healthyStandIn(Path script) {
    try {
      Files.writeString(script, "#!/bin/sh\ncase \"$*\" in\n  --query-remapped-rows=*) printf '%s, No\\n%s, No\\n' "
          + GPU_UUIDS.get(0) + " " + GPU_UUIDS.get(1) + " ;;\n  *) exec " + STAND_IN + " \"$@\" ;;\nesac\n");
      script.toFile().setExecutable(true);
      script.toFile().deleteOnExit();
      return script;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  ProcessAgentHost(String gatewayUrl, Path stateDir) {
    assertTrue(Files.isExecutable(STAND_IN), "the nvidia-smi stand-in at " + STAND_IN);
    this.gatewayUrl = gatewayUrl;
    this.stateDir = stateDir;
    this.nvidiaSmi = healthyStandIn(stateDir.resolveSibling(stateDir.getFileName() + "-nvidia-smi"));
    int first = FreePorts.next();
    this.sshPorts = new PortRange(first, first + 19);
  }

  /** Starts an agent on the state directory: it enrols with {@code enrollmentToken} the first time. */
  void start(String enrollmentToken) {
    AgentOptions options = new AgentOptions(gatewayUrl, stateDir).runtime(RuntimeKind.PROCESS)
        .publicAddress("127.0.0.1").sshPorts(sshPorts).nvidiaSmi(nvidiaSmi.toString())
        .desiredStateWaitSeconds(2).maxBackoff(Duration.ofSeconds(1)).enrollmentToken(enrollmentToken);
    agent = HostAgent.start(vertx, options).await();
  }

  /** Stops the agent's loops; its instances keep running. */
  void stop() {
    if (agent != null) {
      agent.stop().await();
      agent = null;
    }
  }

  /** Remembers a Unix user an instance runs as, to remove it should the test fail before the agent does. */
  void track(String user) {
    users.add(user);
  }

  /** The pid in an instance's sshd pid file. */
  long sshdPid(String instanceId) throws IOException {
    return Long.parseLong(Files.readString(instanceDir(instanceId).resolve("sshd.pid")).strip());
  }

  Path instanceDir(String instanceId) {
    return stateDir.resolve("instances").resolve(instanceId);
  }

  List<String> instanceIds() throws IOException {
    Path root = stateDir.resolve("instances");
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    try (var dirs = Files.list(root)) {
      return dirs.map(d -> d.getFileName().toString()).sorted().toList();
    }
  }

  static Commands.Result run(String... argv) {
    try {
      return Commands.system().run(List.of(argv), Duration.ofSeconds(20));
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", argv) + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      stop();
    } finally {
      vertx.close().await();
      removeLeftovers();
    }
  }

  private void removeLeftovers() throws IOException {
    Path root = stateDir.resolve("instances");
    if (Files.isDirectory(root)) {
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, Files::isDirectory)) {
        for (Path dir : dirs) {
          Path pidFile = dir.resolve("sshd.pid");
          if (Files.exists(pidFile)) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).ifPresent(ProcessHandle::destroyForcibly);
          }
          Path record = dir.resolve("instance.properties");
          if (Files.exists(record)) {
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(record)) {
              p.load(in);
            }
            users.add(p.getProperty("user"));
          }
        }
      }
    }
    for (String user : users) {
      if (user != null && run("getent", "passwd", user).exit() == 0) {
        run("pkill", "-KILL", "-u", user);
        run("userdel", "-r", user);
      }
    }
  }
}
