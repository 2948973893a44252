package io.gpurental.agent.runtime.container;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.runtime.InstanceFailure;
import io.gpurental.agent.runtime.InstanceRuntime.ActualInstance;
import io.gpurental.agent.runtime.PortRange;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A renter who ends their own container from inside ({@code kill -TERM 1}, as root) is reported
 * {@code instance_exited}, the renter's doing, which the gateway does not refund as a host
 * failure, and so is SIGKILLing its SSH server from inside (exit 137); a container removed on the
 * host is still the host's {@code runtime_error}.
 */
class RenterExitTest {
  static PodmanService podman;
  static Vertx vertx;
  static Ssh renter;
  static PortRange ports = PodmanService.freePorts(20);

  @BeforeAll
  static void engine() throws IOException {
    podman = new PodmanService(2);
    vertx = Vertx.vertx();
    renter = new Ssh(Files.createDirectories(podman.dir.resolve("renter")));
  }

  @AfterAll
  static void close() throws IOException {
    try {
      podman.sweep(podman.runtime(vertx, "state", ports));
    } finally {
      vertx.close().await();
      podman.close();
    }
  }

  @Test
  void killingInitFromInsideIsTheRentersExit() throws Exception {
    ContainerRuntime runtime = podman.runtime(vertx, "state", ports);
    DesiredInstance d = instance("k", 0);
    renter.run(runtime.start(d).await(), "kill -TERM 1"); // the session ends with the container
    assertEquals(InstanceFailure.INSTANCE_EXITED, eventuallyNotRunning(runtime, d.id()).failureReason());
    runtime.stop(d.id()).await();
  }

  /** Not init but its child, the SSH server, SIGKILLed from inside: exit 137, still the renter's own doing. */
  @Test
  void killingTheSshServerFromInsideIsTheRentersExitToo() throws Exception {
    ContainerRuntime runtime = podman.runtime(vertx, "state", ports);
    DesiredInstance d = instance("9", 1);
    renter.run(runtime.start(d).await(), "kill -9 $(cat /proc/1/task/1/children)");
    assertEquals(InstanceFailure.INSTANCE_EXITED, eventuallyNotRunning(runtime, d.id()).failureReason());
    runtime.stop(d.id()).await();
  }

  /** A container removed on the host (by anyone but the agent) is not the renter's doing. */
  @Test
  void aContainerRemovedOnTheHostIsTheHostsFailure() throws Exception {
    ContainerRuntime runtime = podman.runtime(vertx, "state", ports);
    DesiredInstance d = instance("x", 1);
    runtime.start(d).await();
    new Engine(podman.socket).remove(Names.container(d.id())); // through the engine: its mounts are its own
    assertEquals(InstanceFailure.RUNTIME_ERROR, eventuallyNotRunning(runtime, d.id()).failureReason());
    runtime.stop(d.id()).await();
  }

  private DesiredInstance instance(String suffix, int gpu) {
    return new DesiredInstance("rsv_" + podman.run + suffix, "root", null, renter.publicKey,
        List.of(new DesiredInstance.Gpu(gpu, podman.gpuUuids.get(gpu))),
        new DesiredInstance.Image(PodmanService.IMAGE, List.of()), new DesiredInstance.Limits(0.5, 256L, null, 128L, null));
  }

  private static ActualInstance eventuallyNotRunning(ContainerRuntime runtime, String id) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      ActualInstance seen = runtime.list().await().stream().filter(i -> i.id().equals(id)).findFirst().orElseThrow();
      if (!seen.healthy()) {
        return seen;
      }
      Thread.sleep(200);
    }
    throw new AssertionError(id + " still running after 60 s");
  }
}
