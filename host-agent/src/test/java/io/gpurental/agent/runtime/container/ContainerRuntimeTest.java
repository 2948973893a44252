package io.gpurental.agent.runtime.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.InstanceReport.Port;
import io.gpurental.agent.protocol.SshEndpoint;
import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.InstanceRuntime.ActualInstance;
import io.gpurental.agent.runtime.PortRange;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The container runtime against the real engine (Podman's Docker-compatible service on a socket of
 * this class's own): isolation as a renter sees it through a real ssh login, adoption after a
 * restart of the runtime, and a complete clean-up.
 */
class ContainerRuntimeTest {
  static PodmanService podman;
  static Vertx vertx;
  static Path stateDir;
  static Ssh renter;
  static PortRange ports;

  @BeforeAll
  static void engine() throws IOException {
    podman = new PodmanService(2);
    vertx = Vertx.vertx();
    stateDir = podman.dir.resolve("state");
    renter = new Ssh(Files.createDirectories(podman.dir.resolve("renter")));
    ports = PodmanService.freePorts(50);
  }

  @AfterAll
  static void close() throws IOException {
    try {
      podman.sweep(runtime());
    } finally {
      vertx.close().await();
      podman.close();
    }
  }

  static ContainerRuntime runtime() {
    return podman.runtime(vertx, "state", ports);
  }

  static DesiredInstance instance(String name, int gpu, List<Integer> ports) {
    return new DesiredInstance("rsv_" + podman.run + name, "root", null, renter.publicKey,
        List.of(new DesiredInstance.Gpu(gpu, podman.gpuUuids.get(gpu))),
        new DesiredInstance.Image(PodmanService.IMAGE, ports),
        new DesiredInstance.Limits(1.0, 256L, 10L, 200L, 64L));
  }

  @Test
  void aRenterGetsAnIsolatedContainerThatIsAdoptedAfterARestartAndRemovedCompletely() throws Exception {
    ContainerRuntime runtime = runtime();
    DesiredInstance a = instance("a", 0, List.of(8888));
    DesiredInstance b = instance("b", 1, List.of());
    long began = System.nanoTime();
    SshEndpoint sshA = runtime.start(a).await();
    long running = System.nanoTime();
    Commands.Result whoami = renter.run(sshA, "whoami");
    long loggedIn = System.nanoTime();
    System.out.printf("cached image: call->running %d ms, call->ssh login done %d ms%n",
        (running - began) / 1_000_000, (loggedIn - began) / 1_000_000);
    assertEquals("root", whoami.out().strip(), whoami.summary());
    assertEquals(List.of(8888), runtime.ports(a.id()).stream().map(Port::containerPort).toList());
    SshEndpoint sshB = runtime.start(b).await();

    try (ServerSocket agentSide = new ServerSocket(0)) {
      String gatewayA = Names.gateway(network(a.id()));
      String addressB = PodmanService.podman("inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
          Names.container(b.id()));
      String probe = String.join("; ",
          "ls /dev | grep gpr-test || true", "env",
          "cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/memory/memory.memsw.limit_in_bytes",
          "cat /sys/fs/cgroup/pids/pids.max", "grep -E 'CapEff|NoNewPrivs' /proc/self/status",
          "echo uidmap $(cat /proc/self/uid_map)",
          reach("host", gatewayA, agentSide.getLocalPort()), reach("other", addressB, 22),
          "echo kept > /workspace/marker");
      String inside = renter.run(sshA, probe).out();
      System.out.println("inside instance a:\n" + inside);
      assertTrue(inside.contains("gpr-test-" + podman.run + "-0"), inside);
      assertFalse(inside.contains("gpr-test-" + podman.run + "-1"), "the other instance's GPU is visible: " + inside);
      assertFalse(inside.contains(podman.gpuUuids.get(1)), inside);
      assertFalse(inside.contains("LD_LIBRARY_PATH"), inside);
      assertTrue(inside.contains("268435456\n268435456\n200\n"), "memory = memory+swap = 256 MiB, 200 pids: " + inside);
      assertTrue(inside.contains("NoNewPrivs:\t1"), inside);
      assertFalse(inside.contains("CapEff:\t000001ffffffffff") || inside.contains("CapEff:\t0000003fffffffff"), inside);
      assertFalse(inside.contains("uidmap 0 0 4294967295"), "root inside is root outside: " + inside);
      assertTrue(inside.contains("host CLOSED") && inside.contains("other CLOSED"), inside);
    }
    String rules = PodmanService.ok("iptables", "-S", EgressRules.chain("F", a.id())).out();
    System.out.println("rules of instance a:\n" + rules + PodmanService.ok("iptables", "-S", EgressRules.chain("I", a.id())).out());
    for (String range : List.of("169.254.169.254/32", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16")) {
      assertTrue(rules.contains("-d " + range + " -j REJECT"), rules);
    }
    assertTrue(PodmanService.ok("iptables", "-S", "FORWARD").out().contains("-j " + EgressRules.chain("F", a.id())));

    // control, and a reboot that flushed the rules: without them the host port is open, and the
    // adopting runtime installs them again
    String gateway = Names.gateway(network(a.id()));
    try (ServerSocket agentSide = new ServerSocket(0)) {
      String probeHost = reach("host", gateway, agentSide.getLocalPort());
      new EgressRules(Commands.system()).remove(a.id());
      assertTrue(renter.run(sshA, probeHost).out().contains("host OPEN"), "the rules are what closes it");
      ContainerRuntime restarted = runtime();
      List<ActualInstance> adopted = restarted.list().await().stream()
          .filter(i -> i.id().equals(a.id()) || i.id().equals(b.id())).toList();
      assertTrue(renter.run(sshA, probeHost).out().contains("host CLOSED"), "rules installed again on adoption");
      rulesOutOfPlaceAreInstalledAgainOnAdoption(a, sshA, probeHost);
      adoptedWithoutDuplicatesThenRemoved(restarted, adopted, a, b, sshA, sshB);
    }
  }

  /**
   * The chains can be there and still not apply: an engine's own accept rule inserted above the
   * jumps (an engine restart puts its rules first), or the chains flushed (iptables -F). Each time,
   * the host port opens to the container, and the next adoption puts the rules back first.
   */
  private void rulesOutOfPlaceAreInstalledAgainOnAdoption(DesiredInstance a, SshEndpoint sshA, String probeHost)
      throws IOException {
    String subnet = Names.subnet(network(a.id()));
    List<String> engineRule = List.of("INPUT", "1", "-s", subnet, "-j", "ACCEPT");
    try {
      iptables("-I", engineRule);
      assertTrue(renter.run(sshA, probeHost).out().contains("host OPEN"), "an accept rule above the jump wins");
      runtime().list().await();
      assertTrue(renter.run(sshA, probeHost).out().contains("host CLOSED"), "the jumps back on top on adoption");
      List<String> input = PodmanService.ok("iptables", "-S", "INPUT").out().lines().toList();
      int jump = input.indexOf("-A INPUT -s " + subnet + " -j " + EgressRules.chain("I", a.id()));
      assertTrue(jump >= 0 && jump < input.indexOf("-A INPUT -s " + subnet + " -j ACCEPT"),
          "the instance's jump above the engine's rule: " + input);

      PodmanService.ok("iptables", "-F", EgressRules.chain("I", a.id()));
      assertTrue(renter.run(sshA, probeHost).out().contains("host OPEN"), "an empty chain refuses nothing");
      runtime().list().await();
      assertTrue(renter.run(sshA, probeHost).out().contains("host CLOSED"), "a flushed chain filled again on adoption");
    } finally {
      iptables("-D", engineRule);
    }
  }

  private static void iptables(String action, List<String> rule) throws IOException {
    List<String> argv = new java.util.ArrayList<>(List.of("iptables", "-w", "5", action));
    argv.addAll(action.equals("-D") ? rule.subList(0, 1) : rule.subList(0, 2));
    argv.addAll(rule.subList(2, rule.size()));
    Commands.system().run(argv, Duration.ofSeconds(20));
  }

  private void adoptedWithoutDuplicatesThenRemoved(ContainerRuntime restarted, List<ActualInstance> adopted, DesiredInstance a,
      DesiredInstance b, SshEndpoint sshA, SshEndpoint sshB) throws Exception {
    assertEquals(2, adopted.size(), adopted.toString());
    ContainerRuntime otherAgent = new ContainerRuntime(vertx, new ContainerRuntime.Settings(podman.socket,
        podman.dir.resolve("other"), "127.0.0.1", ports, Path.of("/usr/sbin/dropbear"), null,
        "another-agent"), Commands.system());
    assertTrue(otherAgent.list().await().stream().noneMatch(i -> i.id().equals(a.id())),
        "another agent on the same engine takes none of this one's instances for its own leftovers");
    assertTrue(adopted.stream().allMatch(ActualInstance::healthy), adopted.toString());
    assertEquals(sshA, adopted.stream().filter(i -> i.id().equals(a.id())).findFirst().orElseThrow().ssh());
    assertEquals(List.of(8888), restarted.ports(a.id()).stream().map(Port::containerPort).toList());
    assertEquals("kept", renter.run(sshA, "cat /workspace/marker").out().strip());
    assertEquals("1", PodmanService.podman("ps", "-a", "-q", "--filter", "label=" + ContainerRuntime.LABEL + "=" + a.id())
        .lines().count() + "");

    restarted.stop(a.id()).await();
    assertGone(a.id());
    assertEquals("root", renter.run(sshB, "whoami").out().strip(), "the other instance lives on");
    restarted.stop(b.id()).await();
    assertGone(b.id());
    assertTrue(restarted.list().await().stream().noneMatch(i -> i.id().startsWith("rsv_" + podman.run)));
  }

  /**
   * A session has the instance's environment: the image's ENV (its PATH first of all, also in a
   * login shell, whose Debian /etc/profile resets PATH) and the GPU variables the engine added from
   * the CDI spec, but not dropbear's LD_LIBRARY_PATH, which is in neither the session nor the
   * container's environment. A command given to ssh runs, and its stdin arrives intact (how scp
   * and rsync talk).
   */
  @Test
  void aSessionHasTheImagesEnvironmentAndTheGpuVariablesButNotTheBundlesLibraries() throws Exception {
    String image = "localhost/gpr-test-env:" + podman.run;
    Path context = Files.createDirectories(podman.dir.resolve("env-image"));
    Files.writeString(context.resolve("Containerfile"), "FROM " + PodmanService.IMAGE + "\n"
        + "ENV PATH=/opt/gpr-tools/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin GPR_IMAGE_VAR=\"it's set\"\n");
    PodmanService.podman("build", "-q", "--pull=never", "-t", image, context.toString());
    ContainerRuntime runtime = runtime();
    DesiredInstance d = new DesiredInstance("rsv_" + podman.run + "env", "root", null, renter.publicKey,
        List.of(new DesiredInstance.Gpu(1, podman.gpuUuids.get(1))), new DesiredInstance.Image(image, List.of()), null);
    try {
      SshEndpoint ssh = runtime.start(d).await();
      Commands.Result command = renter.run(ssh, "env; echo pid1 $(tr '\\0' ' ' < /proc/1/environ)");
      Path input = context.resolve("login-input");
      Files.writeString(input, "env\nexit\n");
      Commands.Result login = renter.session(ssh, null, input);
      Commands.Result terminal = renter.session(ssh, null, input, true);
      for (Commands.Result session : List.of(command, login, terminal)) {
        String env = session.out().replace("\r", "");
        assertTrue(env.contains("GPR_FAKE_GPU_1=" + podman.gpuUuids.get(1) + "\n"), "the CDI spec's variable: " + session.summary() + env);
        assertTrue(env.contains("GPR_IMAGE_VAR=it's set\n"), "the image's ENV: " + env);
        assertTrue(env.contains("PATH=/opt/gpr-tools/bin:/usr/local/sbin:"), "the image's PATH: " + env);
        assertFalse(env.contains(SshBundle.LIBRARY_PATH), "dropbear's libraries leak: " + env);
      }
      assertTrue(command.out().contains("pid1 ") && !command.out().contains("LD_LIBRARY_PATH"), command.out());

      Path blob = context.resolve("blob");
      byte[] bytes = new byte[300_000];
      new java.util.Random().nextBytes(bytes);
      Files.write(blob, bytes);
      Commands.Result copied = renter.session(ssh, "cat > /workspace/blob && sha256sum /workspace/blob", blob);
      String sha = PodmanService.ok("sha256sum", blob.toString()).out().split(" ")[0];
      assertTrue(copied.out().startsWith(sha), copied.summary() + " " + copied.out());
    } finally {
      runtime.stop(d.id()).await();
      PodmanService.podman("rmi", image);
    }
    assertGone(d.id());
  }

  /**
   * An image without /bin/sh (here one static file, imported from a tarball made in the test) is
   * {@code image_unavailable} with a message that says why, found from the engine's stat of the
   * created container before anything runs in it; the stop removes all of it.
   */
  @Test
  void anImageWithoutAShellIsUnavailable() throws Exception {
    Path context = Files.createDirectories(podman.dir.resolve("no-shell"));
    Files.createDirectories(context.resolve("root"));
    Files.writeString(context.resolve("root/hello"), "no shell here\n");
    PodmanService.ok("tar", "-C", context.resolve("root").toString(), "-cf", context.resolve("image.tar").toString(), "hello");
    String image = "localhost/gpr-test-no-shell:" + podman.run;
    PodmanService.podman("import", "-q", context.resolve("image.tar").toString(), image);
    ContainerRuntime runtime = runtime();
    DesiredInstance d = new DesiredInstance("rsv_" + podman.run + "nosh", "root", null, renter.publicKey,
        List.of(new DesiredInstance.Gpu(0, podman.gpuUuids.get(0))), new DesiredInstance.Image(image, List.of()), null);
    try {
      Throwable failure = runtime.start(d).map(ok -> (Throwable) null).otherwise(e -> e).await();
      assertEquals(io.gpurental.agent.runtime.InstanceFailure.IMAGE_UNAVAILABLE,
          io.gpurental.agent.runtime.InstanceFailure.reasonOf(failure), String.valueOf(failure));
      assertTrue(failure.getMessage().contains(image + " has no /bin/sh"), failure.getMessage());
      assertEquals("created", PodmanService.podman("inspect", "-f", "{{.State.Status}}", Names.container(d.id())),
          "nothing ran in it");
    } finally {
      runtime.stop(d.id()).await();
      PodmanService.podman("rmi", image);
    }
    assertGone(d.id());
  }

  /** Stops of one instance that arrive together (two reconcile passes) all succeed and leave nothing behind. */
  @Test
  void stopsOfOneInstanceAtOnceAllSucceed() throws Exception {
    ContainerRuntime runtime = runtime();
    DesiredInstance d = instance("twice", 0, List.of());
    runtime.start(d).await();
    List<io.vertx.core.Future<Void>> stops = java.util.stream.Stream.generate(() -> runtime.stop(d.id())).limit(4)
        .toList();
    io.vertx.core.Future.all(stops).await();
    assertGone(d.id());
  }

  /**
   * Start times with a cached image, five in a row on one runtime: call → running, and call → a
   * finished ssh login. The target is 3 s / 5 s at p50; the bound asserted here is looser
   * because this machine's two cores are shared.
   */
  @Test
  void startTimesWithACachedImage() throws Exception {
    ContainerRuntime runtime = runtime();
    List<Long> toRunning = new java.util.ArrayList<>();
    List<Long> toLogin = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      DesiredInstance d = instance("t" + i, 0, List.of());
      long began = System.nanoTime();
      SshEndpoint ssh = runtime.start(d).await();
      toRunning.add((System.nanoTime() - began) / 1_000_000);
      assertEquals("root", renter.run(ssh, "whoami").out().strip());
      toLogin.add((System.nanoTime() - began) / 1_000_000);
      runtime.stop(d.id()).await();
    }
    System.out.printf("cached image, 5 starts: call->running %s ms, call->ssh login %s ms%n", toRunning, toLogin);
    assertTrue(median(toRunning) < 10_000 && median(toLogin) < 10_000, toRunning + " " + toLogin);
  }

  static long median(List<Long> values) {
    return values.stream().sorted().toList().get(values.size() / 2);
  }

  /** A connect from inside; REJECT answers at once, so 3 s only bounds a broken rule. */
  static String reach(String name, String address, int port) {
    return "if timeout 3 bash -c 'echo > /dev/tcp/" + address + "/" + port + "' 2>/dev/null; then echo " + name
        + " OPEN; else echo " + name + " CLOSED; fi";
  }

  static io.vertx.core.json.JsonObject network(String id) throws IOException {
    return new Engine(podman.socket).network(Names.network(id));
  }

  static void assertGone(String id) throws IOException {
    assertGoneWith(id, stateDir);
  }

  static void assertGoneWith(String id, Path stateDir) throws IOException {
    String label = "label=" + ContainerRuntime.LABEL + "=" + id;
    assertEquals("", PodmanService.podman("ps", "-a", "-q", "--filter", label));
    assertEquals("", PodmanService.podman("network", "ls", "-q", "--filter", label));
    assertEquals("", PodmanService.podman("volume", "ls", "-q", "--filter", label));
    assertFalse(PodmanService.ok("iptables", "-S").out().contains(EgressRules.chain("F", id)));
    assertFalse(PodmanService.ok("iptables", "-S").out().contains(EgressRules.chain("I", id)));
    assertFalse(Files.exists(stateDir.resolve("containers").resolve(id)));
  }
}
