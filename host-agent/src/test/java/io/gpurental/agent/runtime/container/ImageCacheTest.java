package io.gpurental.agent.runtime.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.SshEndpoint;
import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.PortRange;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The image cache against the real engine, on an image store of this class alone (so evictions can
 * never touch another run's images or the shared test image): least-recently-used eviction past the
 * watermark that spares the image of a running instance, and pre-pulls (from a docker-registry on a
 * free loopback port) only into room under the watermark.
 */
class ImageCacheTest {
  static PodmanService podman;
  static Vertx vertx;
  static Ssh renter;
  static PortRange ports = PodmanService.freePorts(20);
  static Process registry;
  static Path dropIn;
  static String registryAddress;

  @BeforeAll
  static void engine() throws IOException {
    Path registryDir = Files.createTempDirectory("gpr-registry-");
    try (ServerSocket free = new ServerSocket(0)) {
      registryAddress = "127.0.0.1:" + free.getLocalPort();
    }
    Files.writeString(registryDir.resolve("config.yml"), "version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: "
        + registryDir.resolve("data") + "\nhttp:\n  addr: " + registryAddress + "\n");
    registry = new ProcessBuilder("docker-registry", "serve", registryDir.resolve("config.yml").toString())
        .redirectErrorStream(true).redirectOutput(registryDir.resolve("registry.log").toFile()).start();
    dropIn = Path.of("/etc/containers/registries.conf.d/gpr-test-" + registryAddress.replace(':', '-') + ".conf");
    Files.writeString(dropIn, "[[registry]]\nlocation = \"" + registryAddress + "\"\ninsecure = true\n");
    podman = new PodmanService(1, true);
    vertx = Vertx.vertx();
    renter = new Ssh(Files.createDirectories(podman.dir.resolve("renter")));
    podman.copyTestImage();
  }

  @AfterAll
  static void close() throws IOException {
    try {
      podman.sweep(podman.runtime(vertx, "state", ports));
    } finally {
      registry.destroy();
      Files.deleteIfExists(dropIn);
      vertx.close().await();
      podman.close();
    }
  }

  /** A tiny image of its own: one file of {@code bytes} random bytes, imported from a tarball. */
  static String tinyImage(String name, int bytes) throws IOException {
    Path dir = Files.createDirectories(podman.dir.resolve("tiny-" + name).resolve("root"));
    byte[] content = new byte[bytes];
    new Random().nextBytes(content);
    Files.write(dir.resolve("blob"), content);
    Path tar = dir.resolveSibling("image.tar");
    PodmanService.ok("tar", "-C", dir.toString(), "-cf", tar.toString(), "blob");
    String ref = "localhost/gpr-cache-" + name + ":" + podman.run;
    podman.cli("import", "-q", tar.toString(), ref);
    return ref;
  }

  boolean cached(String ref) throws IOException {
    return Commands.system().run(List.of("sh", "-c", "podman --root " + podman.dir.resolve("storage") + " --runroot "
        + podman.dir.resolve("run") + " image exists " + ref), Duration.ofSeconds(30)).ok();
  }

  static long size(ContainerRuntime runtime, String ref) throws IOException {
    return runtime.images().cached().stream().filter(c -> c.ref().equals(ref)).findFirst().orElseThrow().sizeBytes();
  }

  static long total(ContainerRuntime runtime) throws IOException {
    return runtime.images().cached().stream().mapToLong(Images.Cached::sizeBytes).sum();
  }

  @Test
  void theLeastRecentlyUsedUnusedImageGoesFirstAndARunningInstancesImageNever() throws Exception {
    ContainerRuntime runtime = podman.runtime(vertx, "state", ports);
    DesiredInstance d = new DesiredInstance("rsv_" + podman.run + "lru", "root", null, renter.publicKey,
        List.of(new DesiredInstance.Gpu(0, podman.gpuUuids.get(0))), new DesiredInstance.Image(PodmanService.IMAGE, List.of()), null);
    SshEndpoint ssh = runtime.start(d).await();
    String old = tinyImage("old", 1_000_000);
    String mid = tinyImage("mid", 1_000_000);
    String recent = tinyImage("recent", 1_000_000);
    Instant now = Instant.now();
    Images images = runtime.images();
    images.used(PodmanService.IMAGE, now.minusSeconds(4000)); // the least recently used of all, but running
    images.used(old, now.minusSeconds(3000));
    images.used(mid, now.minusSeconds(2000));
    images.used(recent, now.minusSeconds(1000));

    // room for all but the oldest unused one; the desired state no longer names the running
    // instance (it is being stopped), so only its container keeps its image
    long limit = total(runtime) - size(runtime, old);
    runtime.maintainImages(List.of(), limit, Set.of());
    assertFalse(cached(old), "the least recently used unused image is evicted");
    assertTrue(cached(mid) && cached(recent) && cached(PodmanService.IMAGE));

    runtime.maintainImages(List.of(), 0L, Set.of());
    assertFalse(cached(mid) || cached(recent), "everything unused goes at a watermark of 0");
    assertTrue(cached(PodmanService.IMAGE), "never the image of a running instance");
    assertEquals("root", renter.run(ssh, "whoami").out().strip());
    runtime.stop(d.id()).await();
    ContainerRuntimeTest.assertGoneWith(d.id(), podman.dir.resolve("state"));
  }

  @Test
  void aPrePullFillsOnlyTheRoomUnderTheWatermark() throws Exception {
    ContainerRuntime runtime = podman.runtime(vertx, "state", ports);
    String local = tinyImage("template", 2_000_000);
    String template = registryAddress + "/gpr/template:" + podman.run;
    podman.cli("tag", local, template);
    podman.cli("push", "-q", "--tls-verify=false", template);
    podman.cli("rmi", local, template);
    long total = total(runtime);

    runtime.maintainImages(List.of(template), total, Set.of(PodmanService.IMAGE));
    assertFalse(cached(template), "no pre-pull while the cache is at the watermark");

    runtime.maintainImages(List.of(template), total + 100_000, Set.of(PodmanService.IMAGE));
    assertFalse(cached(template), "a pre-pull that does not fit under the watermark is removed again");
    assertEquals(total, total(runtime));

    runtime.maintainImages(List.of(template), total + 10_000_000, Set.of(PodmanService.IMAGE));
    assertTrue(cached(template), "pre-pulled where there is room");
    assertTrue(total(runtime) <= total + 10_000_000);

    runtime.maintainImages(List.of(template), 0L, Set.of(PodmanService.IMAGE));
    assertTrue(cached(template), "a template is not evicted for the watermark");
    podman.cli("rmi", template);
  }
}
