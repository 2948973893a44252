package io.gpurental.agent.runtime.container;

import io.gpurental.agent.runtime.Commands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A {@code podman system service} of this test class alone, on a socket in a temp directory (two
 * test runs never share one), plus a CDI spec whose {@code nvidia.com/gpu=<UUID>} devices are
 * harmless device nodes (copies of /dev/null) made for this run. Needs .ci/podman-setup.sh first.
 */
public final class PodmanService implements AutoCloseable {
  public static final String IMAGE = "localhost/gpr-test:bookworm";

  public final Path dir;
  public final Path socket;
  public final String run = UUID.randomUUID().toString().substring(0, 8);
  public final List<String> gpuUuids = new ArrayList<>();
  private final Path cdiSpec;
  private final Process service;
  /** Podman's global flags of an image store of this service alone (empty: the machine's store). */
  private final List<String> storage;

  public PodmanService(int gpus) throws IOException {
    this(gpus, false);
  }

  /**
   * {@code ownStorage}: an image and container store of this service alone (in its temp
   * directory), for tests that remove images: they can never touch another run's or the shared
   * test image. The CLI for that store is {@link #cli}.
   */
  public PodmanService(int gpus, boolean ownStorage) throws IOException {
    Commands.Result image = Commands.system().run(List.of("podman", "image", "exists", IMAGE), Duration.ofSeconds(30));
    if (!image.ok()) {
      throw new IllegalStateException("no test image " + IMAGE + ": run .ci/podman-setup.sh first");
    }
    dir = Files.createTempDirectory("gpr-podman-");
    socket = dir.resolve("podman.sock");
    storage = ownStorage ? List.of("--root", dir.resolve("storage").toString(), "--runroot", dir.resolve("run").toString())
        : List.of();
    List<String> argv = new ArrayList<>(List.of("podman"));
    argv.addAll(storage);
    argv.addAll(List.of("system", "service", "--time=0", "unix://" + socket));
    service = new ProcessBuilder(argv)
        .redirectErrorStream(true).redirectOutput(dir.resolve("service.log").toFile()).start();
    StringBuilder devices = new StringBuilder();
    for (int i = 0; i < gpus; i++) {
      String uuid = "GPU-" + run + "-" + i;
      gpuUuids.add(uuid);
      Path node = devicePath(i);
      ok("mknod", "-m", "666", node.toString(), "c", "1", "3");
      devices.append(i == 0 ? "" : ",").append("{\"name\":\"").append(uuid).append("\",\"containerEdits\":{")
          .append("\"deviceNodes\":[{\"path\":\"").append(node).append("\"}],")
          .append("\"env\":[\"GPR_FAKE_GPU_").append(i).append('=').append(uuid).append("\"]}}");
    }
    Files.createDirectories(Path.of("/etc/cdi"));
    cdiSpec = Path.of("/etc/cdi/gpr-test-" + run + ".json");
    Files.writeString(cdiSpec, "{\"cdiVersion\":\"0.5.0\",\"kind\":\"nvidia.com/gpu\",\"devices\":[" + devices + "]}");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!Files.exists(socket)) {
      if (System.nanoTime() > deadline || !service.isAlive()) {
        throw new IllegalStateException("podman system service did not start: " + Files.readString(dir.resolve("service.log")));
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
  }

  /**
   * A block of {@code size} host ports that are free now, at a random place in 20000–31999 (below
   * the kernel's ephemeral range), so that two test runs on one machine rarely pick the same block;
   * the runtime itself still skips any port that is taken when it reserves one.
   */
  public static io.gpurental.agent.runtime.PortRange freePorts(int size) {
    java.util.Random random = new java.util.Random();
    for (int attempt = 0; attempt < 200; attempt++) {
      int first = 20000 + random.nextInt(12000 - size);
      boolean free = true;
      for (int port = first; port < first + size && free; port++) {
        try (java.net.ServerSocket s = new java.net.ServerSocket()) {
          s.bind(new java.net.InetSocketAddress(port));
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) {
        return new io.gpurental.agent.runtime.PortRange(first, first + size - 1);
      }
    }
    throw new IllegalStateException("no block of " + size + " free ports in 20000-31999");
  }

  Path devicePath(int i) {
    return Path.of("/dev/gpr-test-" + run + "-" + i);
  }

  public static Commands.Result ok(String... argv) throws IOException {
    Commands.Result r = Commands.system().run(List.of(argv), Duration.ofSeconds(60));
    if (!r.ok()) {
      throw new IOException(String.join(" ", argv) + ": " + r.summary());
    }
    return r;
  }

  /** podman's own view (the CLI, not the service under test), for assertions. */
  public static String podman(String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of("podman"));
    argv.addAll(List.of(args));
    return ok(argv.toArray(String[]::new)).out().strip();
  }

  /** podman on this service's store (its own, or the machine's). */
  public String cli(String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of("podman"));
    argv.addAll(storage);
    argv.addAll(List.of(args));
    return ok(argv.toArray(String[]::new)).out().strip();
  }

  /** Copies the machine's test image into this service's own store (a few seconds for 187 MB). */
  public void copyTestImage() throws IOException {
    ok("sh", "-c", "podman save " + IMAGE + " | podman " + String.join(" ", storage) + " load -q");
  }

  /** Removes every instance of this run that a failed test left behind (others' are not touched). */
  public void sweep(ContainerRuntime runtime) {
    for (io.gpurental.agent.runtime.InstanceRuntime.ActualInstance left : runtime.list().await()) {
      if (left.id().startsWith("rsv_" + run)) {
        runtime.stop(left.id()).await();
      }
    }
  }

  /** A runtime on this service, with its state in {@code dir/name} and ports from {@code ports}. */
  public ContainerRuntime runtime(io.vertx.core.Vertx vertx, String name, io.gpurental.agent.runtime.PortRange ports) {
    return runtime(vertx, name, ports, ContainerRuntime.Settings.DEFAULT_MAX_PULL_GB * 1_000_000_000L);
  }

  /** The same, pulling at most {@code maxPullBytes} for a renter's image. */
  public ContainerRuntime runtime(io.vertx.core.Vertx vertx, String name, io.gpurental.agent.runtime.PortRange ports,
      long maxPullBytes) {
    return new ContainerRuntime(vertx, new ContainerRuntime.Settings(socket, dir.resolve(name), "127.0.0.1", ports,
        Path.of("/usr/sbin/dropbear"), null, "test-" + run, maxPullBytes), Commands.system());
  }

  @Override
  public void close() throws IOException {
    if (!storage.isEmpty()) {
      Commands.system().run(List.of("sh", "-c", "podman " + String.join(" ", storage) + " rm -a -f; podman "
          + String.join(" ", storage) + " rmi -a -f"), Duration.ofSeconds(120));
    }
    service.destroy();
    Files.deleteIfExists(cdiSpec);
    for (int i = 0; i < gpuUuids.size(); i++) {
      Files.deleteIfExists(devicePath(i));
    }
    if (!storage.isEmpty()) {
      Commands.system().run(List.of("rm", "-rf", "--one-file-system", dir.resolve("storage").toString()), Duration.ofSeconds(60));
    }
  }
}
