package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.AgentOptions;
import io.gpurental.agent.HostAgent;
import io.gpurental.agent.RuntimeKind;
import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.InstanceRuntime;
import io.gpurental.agent.runtime.PortRange;
import io.gpurental.agent.runtime.container.ContainerRuntime;
import io.gpurental.agent.runtime.container.PodmanService;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FreePorts;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole way with the real engine: the operator enrols this machine as a container-runtime
 * host (the real agent, in-process, on a {@code podman system service} of this test alone whose two
 * "GPUs" are CDI device nodes made for it) and allows the {@code localhost} registry; a renter
 * books one GPU with the custom image {@code localhost/gpr-test:bookworm} and a published port,
 * pays in the sandbox, logs in as root with real {@code ssh} and a strict known_hosts, sees only
 * that GPU and the offer's limits, keeps /workspace across a paid extension; after cancelling, the
 * container, network, volume and rules are gone and the GPU is free. Needs root, podman and
 * .ci/podman-setup.sh (the test image); the agent's test helpers come from host-agent's test-jar.
 */
class ContainerEndToEndTest {
  private static final JsonObject PRICE = new JsonObject().put("price_per_gpu_hour",
      new JsonObject().put("amount", 250).put("currency", "usd"));
  /** Pulling nothing (the image is local) but starting a container on a loaded 2-core machine. */
  private static final Duration WITHIN = Duration.ofSeconds(120);
  private static final String INSTANCE_LABEL = "label=io.gpurental.instance=";

  @TempDir
  Path stateDir;
  @TempDir
  Path renterDir;
  @TempDir
  Path tools;
  PodmanService podman;
  Vertx vertx;
  TestGateway node;
  HostAgent agent;
  PortRange ports;

  @BeforeEach
  void start() throws IOException {
    podman = new PodmanService(2);
    vertx = Vertx.vertx();
    int first = FreePorts.next();
    ports = new PortRange(first, first + 19);
    Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS", "200");
    node = TestGateway.start(settings);
  }

  /** Whatever happened: the agent stopped, every instance of this run's scope removed (with its rules), podman's service ended. */
  @AfterEach
  void stop() throws IOException {
    try {
      try {
        if (agent != null) {
          agent.stop().await();
        }
      } finally {
        try {
          ContainerRuntime sweeper = podman.runtime(vertx, "sweep", ports);
          for (InstanceRuntime.ActualInstance left : sweeper.list().await()) {
            sweeper.stop(left.id()).await();
          }
        } finally {
          vertx.close().await();
          if (node != null) {
            node.close();
          }
        }
      }
    } finally {
      podman.close();
    }
  }

  @Test
  void aRenterPaysLogsIntoAnIsolatedContainerKeepsWorkspaceAcrossAnExtensionAndCancelRemovesEverything()
      throws Exception {
    String offerId = enrolAndActivate();
    ApiClient operator = ApiClient.signIn(node, "operator");
    HttpResponse<String> registries = operator.put("/api/v1/operator/image-settings", new JsonObject()
        .put("allowed_registries", new JsonArray().add("localhost")));
    assertEquals(200, registries.statusCode(), registries.body());

    ApiClient renter = ApiClient.signIn(node, "gina");
    SshLogin.KeyPair key = SshLogin.newKeyPair(renterDir);
    HttpResponse<String> created = renter.post("/api/v1/reservations", ApiClient.reservationRequest(offerId, 1, null, 2,
        "checkout").put("ssh_public_key", key.publicKey()).put("image", PodmanService.IMAGE)
        .put("ports", new JsonArray().add(8888)));
    assertEquals(201, created.statusCode(), created.body());
    JsonObject reserved = new JsonObject(created.body());
    String id = reserved.getString("id");

    long paying = System.nanoTime();
    renter.payByCheckout(reserved, "4242424242424242");
    JsonObject running = eventually(id + " running", WITHIN, () -> renter.json("/api/v1/reservations/" + id),
        r -> "running".equals(r.getString("status")));
    long paidToRunningMs = (System.nanoTime() - paying) / 1_000_000;
    JsonObject ssh = running.getJsonObject("ssh");
    SshLogin login = SshLogin.of(ssh, key, renterDir);
    Commands.Result whoami = eventually("a working ssh login", WITHIN, () -> login.run("whoami"), r -> r.exit() == 0);
    long paidToLoginMs = (System.nanoTime() - paying) / 1_000_000;
    System.out.printf("container runtime, cached image: card paid -> running seen in %d ms, -> ssh login done in %d ms%n",
        paidToRunningMs, paidToLoginMs);
    assertEquals(false, pulled(id), "the image was cached: the agent reported no pull, a cached start");
    assertEquals("root", whoami.out().strip(), whoami.summary());
    assertEquals(ssh.getString("host_key_fingerprint"), login.fingerprintAsSshKeygenPrintsIt());

    // the published port beside ssh
    JsonArray published = running.getJsonArray("ports");
    assertEquals(1, published.size(), running.encode());
    JsonObject port = published.getJsonObject(0);
    assertEquals(8888, port.getInteger("container_port"));
    assertTrue(port.getInteger("host_port") >= ports.first() && port.getInteger("host_port") <= ports.last(),
        port.encode());
    assertEquals("127.0.0.1:" + port.getInteger("host_port"), port.getString("address"));
    assertEquals(new JsonArray().add(8888), running.getJsonObject("image").getJsonArray("ports"));

    // inside: one GPU, the offer's share of memory and the pids limit
    int gpu = running.getJsonArray("gpu_indexes").getInteger(0);
    int other = 1 - gpu;
    Row share = node.sql("SELECT ram_gb_per_gpu FROM offers WHERE id = '" + offerId + "'").iterator().next();
    long memoryBytes = share.getInteger("ram_gb_per_gpu") * 1024L * 1024 * 1024;
    Commands.Result probe = login.run(String.join("; ", "ls /dev | grep gpr-test || true",
        "tr '\\0' '\\n' < /proc/1/environ", "env",
        "echo memory $(cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max)",
        "echo pids $(cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max)"));
    String inside = probe.out();
    System.out.println("inside the instance:\n" + inside);
    assertEquals(0, probe.exit(), probe.summary());
    assertTrue(inside.contains("gpr-test-" + podman.run + "-" + gpu + "\n"), "its GPU's device: " + inside);
    assertFalse(inside.contains("gpr-test-" + podman.run + "-" + other), "the other GPU's device: " + inside);
    // the CDI device's variables are the container's (its PID 1's); a dropbear session does not pass them on
    assertTrue(inside.contains("GPR_FAKE_GPU_" + gpu + "=" + podman.gpuUuids.get(gpu)), inside);
    assertFalse(inside.contains(podman.gpuUuids.get(other)), "the other GPU's UUID: " + inside);
    assertTrue(inside.contains("memory " + memoryBytes + "\n"), "memory = ram_gb_per_gpu GiB: " + inside);
    assertTrue(inside.contains("pids 4096\n"), "4096 pids per GPU: " + inside);
    String rules = PodmanService.ok("iptables", "-S").out();
    assertTrue(rules.contains(chain("I", id)) && rules.contains(chain("F", id)), "its rules are installed: " + rules);

    // one GPU is taken
    assertEquals(1, new JsonObject(node.get("/api/v1/offers/" + offerId).body()).getInteger("gpus_available"));

    // /workspace survives a paid extension
    assertEquals(0, login.run("echo kept > /workspace/marker").exit());
    String container = containerOf(id);
    HttpResponse<String> extending = renter.post("/api/v1/reservations/" + id + "/extend",
        new JsonObject().put("hours", 1).put("payment", "checkout"));
    assertEquals(201, extending.statusCode(), extending.body());
    JsonObject extension = new JsonObject(extending.body()).getJsonArray("extensions").getJsonObject(0);
    assertEquals(200, ApiClient.completeCheckout(node, ApiClient.sessionOf(extension.getString("checkout_url")),
        "4242424242424242").statusCode());
    String end = renter.await(id, r -> r.getInteger("hours") == 3, "extended to 3 hours").getString("end");
    eventually("the host is asked for the new end", () -> instanceAt(id, "ends_at"), Instant.parse(end)::equals);
    Instant asked = Instant.now();
    eventually("the agent reported after it", WITHIN, () -> instanceAt(id, "reported_at"), asked::isBefore);
    assertEquals("kept", login.run("cat /workspace/marker").out().strip(), "the workspace after the extension");
    assertEquals(container, containerOf(id), "the same container");
    assertEquals("running", renter.json("/api/v1/reservations/" + id).getString("status"));

    HttpResponse<String> cancelled = renter.post("/api/v1/reservations/" + id + "/cancel", null);
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    eventually("the container is gone", WITHIN, () -> podmanQuiet("ps", "-a", "-q", "--filter", INSTANCE_LABEL + id),
        String::isEmpty);
    eventually("the network is gone", WITHIN, () -> podmanQuiet("network", "ls", "-q", "--filter", INSTANCE_LABEL + id),
        String::isEmpty);
    eventually("the volume is gone", WITHIN, () -> podmanQuiet("volume", "ls", "-q", "--filter", INSTANCE_LABEL + id),
        String::isEmpty);
    eventually("the rules are gone", WITHIN, () -> run("iptables", "-S").out(),
        all -> !all.contains(chain("I", id)) && !all.contains(chain("F", id)));
    assertFalse(run("iptables", "-t", "nat", "-S").out().contains(chain("I", id)));
    eventually("the login is refused", () -> login.run("true").exit() != 0);
    eventually("the GPU is free again", () -> new JsonObject(node.get("/api/v1/offers/" + offerId).body())
        .getInteger("gpus_available"), free -> free == 2);
    HttpResponse<String> quote = renter.post("/api/v1/quotes", new JsonObject().put("offer_id", offerId)
        .put("gpu_count", 2).put("hours", 1), null);
    assertTrue(quote.statusCode() / 100 == 2, "both GPUs can be quoted: " + quote.body());
  }

  /**
   * The hostile renter of issue 33: 2 h booked and paid, then {@code kill -TERM 1} as root inside.
   * Counted as a host failure, every started hour came back (all of it); it is the renter's own
   * exit, so the reservation ends as a cancellation at that moment would, with that refund.
   */
  @Test
  void aRenterWhoKillsInitGetsNoMoreBackThanCancellingWouldGive() throws Exception {
    String offerId = enrolAndActivate();
    assertEquals(200, ApiClient.signIn(node, "operator").put("/api/v1/operator/image-settings", new JsonObject()
        .put("allowed_registries", new JsonArray().add("localhost"))).statusCode());
    ApiClient renter = ApiClient.signIn(node, "kim");
    SshLogin.KeyPair key = SshLogin.newKeyPair(renterDir);
    HttpResponse<String> created = renter.post("/api/v1/reservations", ApiClient.reservationRequest(offerId, 1, null, 2,
        "checkout").put("ssh_public_key", key.publicKey()).put("image", PodmanService.IMAGE));
    assertEquals(201, created.statusCode(), created.body());
    JsonObject reserved = new JsonObject(created.body());
    String id = reserved.getString("id");
    renter.payByCheckout(reserved, "4242424242424242");
    JsonObject running = eventually(id + " running", WITHIN, () -> renter.json("/api/v1/reservations/" + id),
        r -> "running".equals(r.getString("status")));
    SshLogin login = SshLogin.of(running.getJsonObject("ssh"), key, renterDir);
    eventually("a working ssh login", WITHIN, () -> login.run("true"), r -> r.exit() == 0);
    long paid = node.sql("SELECT amount FROM payments WHERE reservation_id = '" + id + "'").iterator().next().getLong(0);
    long cancellingWouldGive = renter.json("/api/v1/reservations/" + id).getJsonObject("cancellation")
        .getJsonObject("refund").getLong("amount");

    login.run("kill -TERM 1"); // the session ends with the container

    JsonObject ended = eventually(id + " ended", WITHIN, () -> renter.json("/api/v1/reservations/" + id),
        r -> !"running".equals(r.getString("status")));
    assertEquals("cancelled", ended.getString("status"), ended.encode());
    assertTrue(ended.getJsonArray("events").encode().contains("instance_exited"), ended.encode());
    long refunded = eventually("the refund made", WITHIN, () -> node.sql("SELECT coalesce(sum(r.amount), 0),"
        + " bool_and(r.status = 'succeeded') FROM refunds r JOIN payments p ON p.id = r.payment_id"
        + " WHERE p.reservation_id = '" + id + "'").iterator().next(), row -> row.getBoolean(1) != null
        && row.getBoolean(1)).getLong(0);
    System.out.printf("renter killed init 2 h in advance paid %d: refunded %d, cancelling would have given %d%n", paid,
        refunded, cancellingWouldGive);
    assertTrue(refunded <= cancellingWouldGive && refunded < paid, "refunded " + refunded + " of " + paid
        + "; a cancellation would give " + cancellingWouldGive);
    assertEquals(0L, node.sql("SELECT count(*) FROM reservation_credits WHERE reservation_id = '" + id + "'")
        .iterator().next().getLong(0), "no host-failure credit");
    eventually("the GPU is free again", () -> new JsonObject(node.get("/api/v1/offers/" + offerId).body())
        .getInteger("gpus_available"), free -> free == 2);
  }

  @Test
  void anUncachedImageIsPulledFirstAndCountsAsAnUncachedStart() throws Exception {
    // a registry of this test's own (Debian's docker-registry on a free loopback port, insecure to
    // the engine through a drop-in the engine's service reads when it starts: so it starts again)
    Path registryDir = Files.createTempDirectory("gpr-registry-");
    int registryPort = FreePorts.next();
    String address = "127.0.0.1:" + registryPort;
    Files.writeString(registryDir.resolve("config.yml"), "version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: "
        + registryDir.resolve("data") + "\nhttp:\n  addr: " + address + "\n");
    Process registry = new ProcessBuilder("docker-registry", "serve", registryDir.resolve("config.yml").toString())
        .redirectErrorStream(true).redirectOutput(registryDir.resolve("registry.log").toFile()).start();
    Path dropIn = Path.of("/etc/containers/registries.conf.d/gpr-test-" + registryPort + ".conf");
    String ref = address + "/gpr/uncached:" + podman.run;
    try {
      Files.writeString(dropIn, "[[registry]]\nlocation = \"" + address + "\"\ninsecure = true\n");
      podman.close();
      podman = new PodmanService(2);
      // a layer of its own (30 MB of random bytes), pushed, then removed here: the start must pull it
      String builder = "gpr-build-" + podman.run;
      PodmanService.podman("run", "--name", builder, PodmanService.IMAGE, "sh", "-c",
          "head -c 30000000 /dev/urandom > /opt/blob");
      PodmanService.podman("commit", "-q", builder, ref);
      PodmanService.podman("rm", builder);
      eventually("the registry answers", WITHIN, () -> {
        try {
          PodmanService.podman("push", "-q", "--tls-verify=false", ref);
          return true;
        } catch (IOException e) {
          return false;
        }
      }, pushed -> pushed);
      PodmanService.podman("rmi", ref);

      String offerId = enrolAndActivate();
      ApiClient operator = ApiClient.signIn(node, "operator");
      assertEquals(200, operator.put("/api/v1/operator/image-settings", new JsonObject()
          .put("allowed_registries", new JsonArray().add(address))).statusCode());
      ApiClient renter = ApiClient.signIn(node, "gino");
      SshLogin.KeyPair key = SshLogin.newKeyPair(renterDir);
      HttpResponse<String> created = renter.post("/api/v1/reservations", ApiClient.reservationRequest(offerId, 1, null,
          1, "checkout").put("ssh_public_key", key.publicKey()).put("image", ref));
      assertEquals(201, created.statusCode(), created.body());
      JsonObject reserved = new JsonObject(created.body());
      String id = reserved.getString("id");

      long paying = System.nanoTime();
      renter.payByCheckout(reserved, "4242424242424242");
      JsonObject running = eventually(id + " running", WITHIN, () -> renter.json("/api/v1/reservations/" + id),
          r -> "running".equals(r.getString("status")));
      long paidToRunningMs = (System.nanoTime() - paying) / 1_000_000;
      SshLogin login = SshLogin.of(running.getJsonObject("ssh"), key, renterDir);
      Commands.Result blob = eventually("a working ssh login", WITHIN, () -> login.run("wc -c < /opt/blob"),
          r -> r.exit() == 0);
      long paidToLoginMs = (System.nanoTime() - paying) / 1_000_000;
      System.out.printf("container runtime, uncached image (30 MB layer from a loopback registry): card paid -> running"
          + " seen in %d ms, -> ssh login done in %d ms%n", paidToRunningMs, paidToLoginMs);
      assertEquals("30000000", blob.out().strip(), "the pulled image runs");
      assertEquals(true, pulled(id), "the agent reported pulling: an uncached start");
      assertTrue(running.getJsonArray("events").encode().contains("pulling the image"), running.encode());
      assertEquals(200, renter.post("/api/v1/reservations/" + id + "/cancel", null).statusCode());
    } finally {
      registry.destroy();
      Files.deleteIfExists(dropIn);
      Commands.system().run(java.util.List.of("podman", "rmi", "-f", ref), Duration.ofSeconds(60));
    }
  }

  /** Whether the start counts as uncached (the agent reported pulling) in the fleet's time-to-ready samples. */
  private boolean pulled(String reservationId) {
    return node.sql("SELECT pulled FROM ready_samples_view WHERE reservation_id = '" + reservationId + "'").iterator()
        .next().getBoolean(0);
  }

  /** Operator: a site, a container host on this machine, its agent enrolled, activated. Answers the offer. */
  private String enrolAndActivate() throws IOException {
    ApiClient operator = ApiClient.signIn(node, "operator");
    // the demo templates would be pre-pulled by the agent (gigabytes from public registries): retired, the
    // host is asked to pull nothing, and the renter's image is the local test image alone
    for (Object template : operator.json("/api/v1/operator/images").getJsonArray("data")) {
      String templateId = ((JsonObject) template).getString("id");
      HttpResponse<String> retired = operator.delete("/api/v1/operator/images/" + templateId);
      assertEquals(200, retired.statusCode(), templateId + ": " + retired.body());
    }
    HttpResponse<String> site = operator.post("/api/v1/operator/sites", new JsonObject()
        .put("name", "This machine").put("region", "test-local").put("country", "DE"));
    assertEquals(201, site.statusCode(), site.body());
    HttpResponse<String> created = operator.post("/api/v1/operator/hosts", new JsonObject().put("name", "podman-gpu")
        .put("site_id", new JsonObject(site.body()).getString("id")).put("public_address", "127.0.0.1"));
    assertEquals(201, created.statusCode(), created.body());
    JsonObject enrolling = new JsonObject(created.body());
    AgentOptions options = new AgentOptions(node.url(""), stateDir).runtime(RuntimeKind.CONTAINER)
        .engineSocket(podman.socket).containerScope("test-" + podman.run).publicAddress("127.0.0.1").sshPorts(ports)
        .nvidiaSmi(nvidiaSmi().toString()).nvidiaCtk(nvidiaCtk().toString())
        .ipmitool(tools.resolve("no-ipmitool").toString()).smartctl(tools.resolve("no-smartctl").toString())
        .desiredStateWaitSeconds(2).maxBackoff(Duration.ofSeconds(1))
        .enrollmentToken(enrolling.getString("enrollment_token"));
    agent = HostAgent.start(vertx, options).await();
    String hostId = enrolling.getString("id");
    eventually("the host is pending", () -> operator.json("/api/v1/operator/hosts/" + hostId),
        h -> "pending".equals(h.getString("status")) && h.getJsonArray("gpus").size() == 2);
    Row facts = node.sql("SELECT runtime, container_toolkit_version, engine FROM host_facts WHERE host_id = '" + hostId
        + "'").iterator().next();
    assertEquals("container", facts.getString("runtime"));
    assertEquals("1.17.8", facts.getString("container_toolkit_version"));
    assertTrue(facts.getString("engine").startsWith("podman "), facts.getString("engine"));
    HttpResponse<String> activated = operator.post("/api/v1/operator/hosts/" + hostId + "/activate", PRICE);
    assertEquals(200, activated.statusCode(), activated.body());
    String offerId = new JsonObject(activated.body()).getJsonArray("offers").getString(0);
    assertEquals("container", new JsonObject(node.get("/api/v1/offers/" + offerId).body()).getString("isolation"));
    return offerId;
  }

  /** The agent's two-GPU nvidia-smi stand-in, reporting the GPUs podman has CDI devices for, both healthy. */
  private Path nvidiaSmi() throws IOException {
    Path standIn = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
        .resolve("../host-agent/src/test/resources/nvidia-smi/standin-2gpu").normalize().toAbsolutePath();
    assertTrue(Files.isExecutable(standIn), "the nvidia-smi stand-in at " + standIn);
    String a = podman.gpuUuids.get(0);
    String b = podman.gpuUuids.get(1);
    return script("nvidia-smi", "case \"$*\" in\n"
        + "  --query-gpu=*) " + standIn + " \"$@\" | sed -e 's/" + ProcessAgentHost.GPU_UUIDS.get(0) + "/" + a + "/' -e 's/"
        + ProcessAgentHost.GPU_UUIDS.get(1) + "/" + b + "/' ;;\n"
        + "  --query-remapped-rows=*) printf '%s, No\\n%s, No\\n' " + a + " " + b + " ;;\n"
        + "  *) exec " + standIn + " \"$@\" ;;\nesac\n");
  }

  /** A toolkit the gateway accepts (1.17.8 fixes CVE-2025-23266); nothing here uses it beyond the version. */
  private Path nvidiaCtk() throws IOException {
    return script("nvidia-ctk", "echo 'NVIDIA Container Toolkit CLI version 1.17.8'\necho 'commit: test-stand-in'\n");
  }

  private Path script(String name, String body) throws IOException {
    Path script = tools.resolve(name);
    Files.writeString(script, "#!/bin/sh\n" + body);
    assertTrue(script.toFile().setExecutable(true));
    return script;
  }

  /** The agent's iptables chains of an instance (EgressRules: "GPR" + kind + "-" + 8 bytes of SHA-256 of the id). */
  private static String chain(String kind, String instanceId) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(instanceId.getBytes(StandardCharsets.UTF_8));
      return "GPR" + kind + "-" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private Instant instanceAt(String id, String column) {
    return node.sql("SELECT " + column + " FROM instances WHERE reservation_id = '" + id + "'").iterator().next()
        .getOffsetDateTime(0).toInstant();
  }

  private static String containerOf(String id) throws IOException {
    return PodmanService.podman("ps", "-a", "-q", "--no-trunc", "--filter", INSTANCE_LABEL + id);
  }

  private static String podmanQuiet(String... args) {
    try {
      return PodmanService.podman(args);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Commands.Result run(String... argv) {
    return ProcessAgentHost.run(argv);
  }
}
