package io.gpurental.agent.runtime.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.SshEndpoint;
import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.InstanceRuntime.ActualInstance;
import io.gpurental.agent.runtime.PortRange;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A renter who plants FIFOs, huge files, broken keys and symlinks to host paths, fills the logs,
 * then forks without end: the agent's listing still answers at once and the same, and the
 * instance is still removed completely in bounded time, without touching the host's files.
 */
class HostileTenantTest {
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
      podman.sweep(podman.runtime(vertx, "state", ports));
    } finally {
      vertx.close().await();
      podman.close();
    }
  }

  @Test
  void aHostileTenantCannotWedgeTheAgentAndIsStillEvicted() throws Exception {
    ContainerRuntime runtime = podman.runtime(vertx, "state", ports);
    DesiredInstance d = new DesiredInstance("rsv_" + podman.run + "h", "root", null, renter.publicKey,
        List.of(new DesiredInstance.Gpu(0, podman.gpuUuids.get(0))), new DesiredInstance.Image(PodmanService.IMAGE, List.of()),
        new DesiredInstance.Limits(0.5, 256L, null, 128L, null));
    SshEndpoint ssh = runtime.start(d).await();
    Path victim = Files.writeString(podman.dir.resolve("victim"), "host file");
    String plant = String.join("; ",
        "mkdir -p /etc/ssh && mkfifo /etc/ssh/ssh_host_ed25519_key.pub /root/.ssh/known_hosts /.gpr-keys/x 2>/dev/null",
        "truncate -s 100G /workspace/huge && dd if=/dev/zero of=/root/big bs=1M count=64 status=none",
        "printf 'ssh-ed25519 !!!broken\\n\\0\\0' > /root/.ssh/authorized_keys2",
        "rm -f /root/.ssh/authorized_keys; echo >> /root/.ssh/authorized_keys",
        "ln -s " + victim + " /workspace/victim; ln -s / /workspace/root",
        "head -c 8000000 /dev/zero | tr '\\0' x > /proc/1/fd/1",
        "echo planted");
    assertTrue(renter.run(ssh, plant).out().contains("planted"));
    // loops that keep forking (they hold the pids limit and retry every second), then the classic bomb
    Commands.Result bomb = renter.run(ssh, "nohup sh -c 'for i in $(seq 2000); do (while :; do sleep 1; done) & done;"
        + " f() { f | f & }; f' >/dev/null 2>&1 & echo bombed");
    assertTrue(bomb.out().contains("bombed"), bomb.summary());
    eventuallyPidsFull(d.id());

    long began = System.nanoTime();
    ActualInstance seen = runtime.list().await().stream().filter(i -> i.id().equals(d.id())).findFirst().orElseThrow();
    long listMs = (System.nanoTime() - began) / 1_000_000;
    assertEquals(ssh, seen.ssh(), "the same endpoint, known from the agent's own files");
    assertTrue(listMs < 5_000, "listing took " + listMs + " ms");

    began = System.nanoTime();
    runtime.stop(d.id()).await();
    long stopMs = (System.nanoTime() - began) / 1_000_000;
    System.out.printf("hostile tenant: list %d ms, stop with a fork bomb inside %d ms%n", listMs, stopMs);
    assertTrue(stopMs < 60_000, "stop took " + stopMs + " ms");
    ContainerRuntimeTest.assertGoneWith(d.id(), podman.dir.resolve("state"));
    assertEquals("host file", Files.readString(victim), "removing the volume followed a renter's symlink");
    assertTrue(Files.exists(Path.of("/etc/passwd")));
  }

  interface Read {
    String get() throws IOException;
  }

  private static String quietly(Read read) {
    try {
      return read.get();
    } catch (IOException e) {
      return e.toString();
    }
  }

  /** The pids limit has refused the fork bomb a fork (read from the host's cgroup, not the container). */
  private static void eventuallyPidsFull(String id) throws IOException {
    String pid = PodmanService.podman("inspect", "-f", "{{.State.Pid}}", Names.container(id));
    String cgroup = Files.readAllLines(Path.of("/proc/" + pid + "/cgroup")).stream()
        .filter(l -> l.contains(":pids:")).findFirst().orElseThrow().split(":", 3)[2];
    Path current = Path.of("/sys/fs/cgroup/pids" + cgroup, "pids.current");
    long deadline = System.nanoTime() + 30_000_000_000L;
    Path events = current.resolveSibling("pids.events"); // "max N": forks the limit refused
    while (!Files.readString(events).matches("(?s).*max [1-9].*")) {
      assertTrue(System.nanoTime() < deadline, () -> "the fork bomb never reached the pids limit: " + current + " = "
          + quietly(() -> Files.readString(current).strip()) + ", max " + quietly(() -> Files.readString(current.resolveSibling("pids.max")).strip()));
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
