package io.gpurental.agent.runtime.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.InstanceFailure;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container disk quota is switched off only by the engine's own answer that its storage driver
 * has none (the Podman of these machines answers that; it is said in the host's facts); any other
 * create error that mentions a size or a quota fails that start and leaves the quota on.
 */
class DiskQuotaTest {
  /** What this machine's Podman 4.3 answers (overlay on ext4); Docker's overlay2 says the same. */
  static final String UNSUPPORTED = "--storage-opt is supported only for overlay over xfs with 'pquota' mount option";

  @TempDir
  Path dir;
  Vertx vertx;
  FakeEngine engine;
  final AtomicReference<String> createError = new AtomicReference<>();

  @BeforeEach
  void engine() throws Exception {
    vertx = Vertx.vertx();
    engine = new FakeEngine(Files.createDirectories(dir.resolve("engine")), this::answer);
  }

  @AfterEach
  void close() throws Exception {
    engine.close();
    vertx.close().await();
  }

  /** A Docker daemon that has the image and makes networks and volumes, and answers a create with the test's error. */
  private FakeEngine.Answer answer(FakeEngine.Request r) {
    if (r.method().equals("POST") && r.path().contains("/containers/create")) {
      boolean quota = r.json().getJsonObject("HostConfig").containsKey("StorageOpt");
      String error = quota ? createError.get() : "a later step of this fake";
      return FakeEngine.Answer.json(500, new io.vertx.core.json.JsonObject().put("message", error).encode());
    }
    if (r.method().equals("GET") && r.path().contains("/images/localhost")) {
      return FakeEngine.Answer.json(200, "{\"Id\":\"sha256:1\",\"Size\":1000}");
    }
    if (r.method().equals("GET") && r.path().matches(".*/networks/gpr-[^?]*")) {
      return FakeEngine.Answer.json(200, "{\"Name\":\"n\",\"IPAM\":{\"Config\":[{\"Subnet\":\"10.251.0.0/24\","
          + "\"Gateway\":\"10.251.0.1\"}]}}");
    }
    if (r.method().equals("POST") && (r.path().contains("/networks/create") || r.path().contains("/volumes/create"))) {
      return FakeEngine.Answer.json(201, "{}");
    }
    return FakeEngine.docker(r, "[\"name=userns\"]");
  }

  private ContainerRuntime runtime() {
    return new ContainerRuntime(vertx, new ContainerRuntime.Settings(engine.socket, dir.resolve("state"), "127.0.0.1",
        PodmanService.freePorts(10), Path.of("/usr/sbin/dropbear"), null, "test-quota"), Commands.system());
  }

  private static DesiredInstance instance(String id) {
    return new DesiredInstance(id, "root", null, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG9vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29v r",
        List.of(new DesiredInstance.Gpu(0, "GPU-quota-0")), new DesiredInstance.Image("localhost/x:1", List.of()),
        new DesiredInstance.Limits(1.0, 256L, 10L, 100L, 64L));
  }

  private Throwable start(ContainerRuntime runtime, String id) {
    return runtime.start(instance(id)).map(ok -> (Throwable) null).otherwise(e -> e).await();
  }

  @Test
  void anErrorAboutASizeFailsTheStartAndKeepsTheQuota() {
    ContainerRuntime runtime = runtime();
    for (String error : List.of("invalid size: '10G' for shm", "disk quota exceeded", "no space left on device")) {
      createError.set(error);
      int before = engine.calls("POST", "/containers/create").size();
      Throwable failure = start(runtime, "rsv_quota" + before);
      assertTrue(String.valueOf(failure).contains(error), String.valueOf(failure));
      assertEquals(before + 1, engine.calls("POST", "/containers/create").size(),
          error + ": no second create without the disk limit");
      assertNull(runtime.isolation().diskLimit(), error + ": the quota is not switched off");
    }
    assertTrue(runtime.isolation().warnings().isEmpty(), runtime.isolation().warnings().toString());
  }

  @Test
  void theEnginesNotSupportedAnswerSwitchesItOffAndTheFactsSaySo() {
    ContainerRuntime runtime = runtime();
    createError.set(UNSUPPORTED);
    start(runtime, "rsv_quotaoff");
    List<FakeEngine.Request> creates = engine.calls("POST", "/containers/create");
    assertEquals(2, creates.size(), "asked with the limit, then without");
    assertFalse(creates.get(1).json().getJsonObject("HostConfig").containsKey("StorageOpt"));
    assertEquals(false, runtime.isolation().diskLimit());
    assertTrue(runtime.isolation().json().getJsonArray("warnings").encode().contains("without a disk limit"),
        runtime.isolation().json().encode());
  }

  @Test
  void onlyTheOptionsNotSupportedAnswerIsARefusal() {
    assertTrue(Names.quotaRefusal("create gpr-x: 500 " + UNSUPPORTED));
    assertTrue(Names.quotaRefusal("--storage-opt is not supported for aufs"));
    assertTrue(Names.quotaRefusal("Storage Opt is not supported"));
    // containers/storage's overlay driver, when the size comes as a store option (podman's CLI here)
    assertTrue(Names.quotaRefusal("storage option overlay.size and overlay.inodes only supported for backingFS XFS."
        + " Found extfs"));
    for (String other : List.of("invalid size: '10G'", "disk quota exceeded", "storage-opt size: invalid value",
        "no space left on device", "the shm size is not supported")) {
      assertFalse(Names.quotaRefusal(other), other);
    }
  }
}
