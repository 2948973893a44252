package io.gpurental.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.SshEndpoint;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The docker runtime on the exact command lines it builds (there is no Docker engine here). */
class DockerRuntimeTest {
  static final String KEY = keyLine((byte) 1) + " renter";
  static final String HOST_KEY = keyLine((byte) 2) + " root@container";
  final Vertx vertx = Vertx.vertx();
  final DesiredInstance instance = new DesiredInstance("rsv_abc123", "rsv_abc123", null, KEY,
      List.of(new DesiredInstance.Gpu(0, "GPU-aaa"), new DesiredInstance.Gpu(1, "GPU-bbb")));

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void commandLines() {
    assertEquals(List.of("docker", "run", "-d", "--name", "gpr-rsv_abc123",
        "--label", "gpr.reservation=rsv_abc123", "--label", "gpr.user=rsv_abc123", "--label", "gpr.port=22017",
        "--gpus", "\"device=GPU-aaa,GPU-bbb\"", "-p", "22017:22",
        "-e", "AUTHORIZED_KEY=" + KEY, "-e", "SSH_USER=rsv_abc123", "img:1"),
        DockerRuntime.runCommand(instance, 22017, "img:1"));
    assertEquals(List.of("docker", "ps", "-a", "--filter", "label=gpr.reservation", "--format",
        "{{.Label \"gpr.reservation\"}}\t{{.State}}\t{{.Label \"gpr.user\"}}\t{{.Label \"gpr.port\"}}"),
        DockerRuntime.listCommand());
    assertEquals(List.of("docker", "rm", "-f", "gpr-rsv_abc123"), DockerRuntime.removeCommand("rsv_abc123"));
  }

  @Test
  void startListStopThroughDocker() {
    List<List<String>> ran = new ArrayList<>();
    Function<List<String>, Commands.Result> answers = argv -> {
      if (argv.get(1).equals("ps")) {
        boolean started = ran.stream().anyMatch(a -> a.get(1).equals("run"));
        return ok(started ? "rsv_abc123\trunning\trsv_abc123\t22000\n" : "");
      }
      if (argv.get(1).equals("exec")) {
        return ok(HOST_KEY + "\n");
      }
      return ok("3f2a…\n");
    };
    DockerRuntime docker = new DockerRuntime(vertx, "img:1", "203.0.113.7", new PortRange(22000, 22001),
        (argv, timeout) -> {
          ran.add(argv);
          return answers.apply(argv);
        });

    SshEndpoint ssh = docker.start(instance).await();
    assertEquals(new SshEndpoint("203.0.113.7", 22000, "rsv_abc123", SshKeys.fingerprint(HOST_KEY),
        SshKeys.withoutComment(HOST_KEY)), ssh);
    assertEquals(DockerRuntime.runCommand(instance, 22000, "img:1"), ran.get(1));

    List<InstanceRuntime.ActualInstance> listed = docker.list().await();
    assertEquals(1, listed.size());
    assertTrue(listed.get(0).healthy());
    assertEquals(ssh, listed.get(0).ssh());

    docker.stop("rsv_abc123").await();
    assertEquals(DockerRuntime.removeCommand("rsv_abc123"), ran.get(ran.size() - 1));
  }

  /** A well-formed ed25519 public key line: string "ssh-ed25519", then 32 key bytes. */
  static String keyLine(byte fill) {
    byte[] type = "ssh-ed25519".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] key = new byte[32];
    java.util.Arrays.fill(key, fill);
    java.nio.ByteBuffer blob = java.nio.ByteBuffer.allocate(8 + type.length + key.length);
    blob.putInt(type.length).put(type).putInt(key.length).put(key);
    return "ssh-ed25519 " + java.util.Base64.getEncoder().encodeToString(blob.array());
  }

  static Commands.Result ok(String out) {
    return new Commands.Result(0, out, "");
  }
}
