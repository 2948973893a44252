package io.gpurental.agent;

import static io.gpurental.agent.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.runtime.container.FakeEngine;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the container runtime checks of the engine before the agent enrols: a missing socket is
 * named with its flag, and Docker without user namespaces (a container's root is the host's root)
 * is refused unless the operator allows it, which the host's facts then say.
 */
class EngineChecksAtStartTest {
  @TempDir
  Path dir;
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

  AgentOptions options(Path socket) {
    Path state = dir.resolve("state");
    return new AgentOptions(gateway.url(), state).runtime(RuntimeKind.CONTAINER).engineSocket(socket)
        .publicAddress("127.0.0.1").enrollmentToken(FakeGateway.TOKEN).containerScope("test-checks")
        .nvidiaSmi(AgentProtocolTest.STAND_IN.toString()).nvidiaCtk(dir.resolve("no-nvidia-ctk").toString())
        .desiredStateWaitSeconds(1).maxBackoff(Duration.ofSeconds(1))
        .ipmitool(dir.resolve("no-ipmitool").toString()).smartctl(dir.resolve("no-smartctl").toString());
  }

  @Test
  void aMissingEngineSocketIsNamedWithItsFlag() {
    Path missing = dir.resolve("no-such-engine.sock");
    Exception e = assertThrows(Exception.class, () -> HostAgent.start(vertx, options(missing)).await());
    assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains("--engine-socket"),
        e.getMessage());
    assertTrue(gateway.enrolments.isEmpty(), "nothing enrolled with an engine that is not there");
  }

  @Test
  void dockerWithoutUserNamespacesIsRefusedUnlessAllowedAndThenInTheFacts() throws Exception {
    try (FakeEngine docker = new FakeEngine(Files.createDirectories(dir.resolve("docker")),
        r -> FakeEngine.docker(r, "[\"name=apparmor\",\"name=seccomp,profile=builtin\"]"))) {
      Exception e = assertThrows(Exception.class, () -> HostAgent.start(vertx, options(docker.socket)).await());
      assertTrue(e.getMessage().contains("without user namespaces") && e.getMessage().contains(
          "--allow-docker-without-userns"), e.getMessage());
      assertTrue(gateway.enrolments.isEmpty());

      HostAgent agent = HostAgent.start(vertx, options(docker.socket).allowDockerWithoutUserns(true)).await();
      JsonObject isolation = gateway.enrolments.get(0).getJsonObject("facts").getJsonObject("container_isolation");
      assertEquals(false, isolation.getBoolean("user_namespaces"), isolation.encode());
      assertTrue(isolation.getJsonArray("warnings").getString(0).contains("root on this host"), isolation.encode());
      eventually(Duration.ofSeconds(10), "a heartbeat", () -> !gateway.heartbeats.isEmpty());
      JsonObject beat = gateway.heartbeats.get(0);
      assertEquals(isolation, beat.getJsonObject("container_isolation"), "the first heartbeat of a start has them");
      agent.stop().await();
    }
  }

  @Test
  void dockerWithUserNamespaceRemappingStartsWithoutAWarning() throws Exception {
    try (FakeEngine docker = new FakeEngine(Files.createDirectories(dir.resolve("docker")),
        r -> FakeEngine.docker(r, "[\"name=seccomp,profile=builtin\",\"name=userns\"]"))) {
      HostAgent agent = HostAgent.start(vertx, options(docker.socket)).await();
      JsonObject isolation = gateway.enrolments.get(0).getJsonObject("facts").getJsonObject("container_isolation");
      assertEquals(true, isolation.getBoolean("user_namespaces"), isolation.encode());
      assertFalse(isolation.getJsonArray("warnings").encode().contains("user namespaces"), isolation.encode());
      agent.stop().await();
    }
  }
}
