package io.gpurental.agent.runtime;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.SshEndpoint;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Each instance is a container of an sshd image ({@code --docker-image}) given the instance's GPUs
 * through the NVIDIA container toolkit ({@code --gpus '"device=<uuids>"'}), the renter's key in
 * {@code AUTHORIZED_KEY} and the user name in {@code SSH_USER}, port 22 published on a port of the
 * range. Labels carry the reservation id, user and port, so {@code docker ps} alone finds the
 * instances again after a restart.
 */
public final class DockerRuntime implements InstanceRuntime {
  static final String LABEL = "gpr.reservation";
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final String HOST_KEY = "/etc/ssh/ssh_host_ed25519_key.pub";

  private final Vertx vertx;
  private final String image;
  private final String publicAddress;
  private final PortRange ports;
  private final Commands commands;

  public DockerRuntime(Vertx vertx, String image, String publicAddress, PortRange ports, Commands commands) {
    this.vertx = vertx;
    this.image = image;
    this.publicAddress = publicAddress;
    this.ports = ports;
    this.commands = commands;
  }

  static String containerName(String instanceId) {
    return "gpr-" + instanceId;
  }

  static List<String> runCommand(DesiredInstance instance, int port, String image) {
    return List.of("docker", "run", "-d", "--name", containerName(instance.id()),
        "--label", LABEL + "=" + instance.id(), "--label", "gpr.user=" + instance.user(),
        "--label", "gpr.port=" + port,
        // the inner double quotes are docker's: a device list contains commas
        "--gpus", "\"device=" + instance.gpuUuids() + "\"",
        "-p", port + ":22", "-e", "AUTHORIZED_KEY=" + instance.sshPublicKey(),
        "-e", "SSH_USER=" + instance.user(), image);
  }

  static List<String> listCommand() {
    return List.of("docker", "ps", "-a", "--filter", "label=" + LABEL, "--format",
        "{{.Label \"" + LABEL + "\"}}\t{{.State}}\t{{.Label \"gpr.user\"}}\t{{.Label \"gpr.port\"}}");
  }

  static List<String> removeCommand(String instanceId) {
    return List.of("docker", "rm", "-f", containerName(instanceId));
  }

  static List<String> hostKeyCommand(String instanceId) {
    return List.of("docker", "exec", containerName(instanceId), "cat", HOST_KEY);
  }

  @Override
  public Future<List<ActualInstance>> list() {
    return vertx.executeBlocking(() -> {
      List<ActualInstance> found = new ArrayList<>();
      for (String[] c : containers()) {
        boolean running = c[1].equals("running");
        found.add(running ? new ActualInstance(c[0], endpoint(c[0], c[2], Integer.parseInt(c[3])), null)
            : new ActualInstance(c[0], null, InstanceFailure.RUNTIME_ERROR));
      }
      return found;
    }, false);
  }

  @Override
  public Future<SshEndpoint> start(DesiredInstance instance) {
    return vertx.executeBlocking(() -> {
      if (instance.gpus().isEmpty()) {
        throw new InstanceFailure(InstanceFailure.GPU_UNAVAILABLE, "an instance needs at least one GPU");
      }
      int port = freePort();
      Commands.Result run = commands.run(runCommand(instance, port, image), TIMEOUT);
      if (!run.ok()) {
        throw new InstanceFailure(run.err().contains("gpu") ? InstanceFailure.GPU_UNAVAILABLE
            : InstanceFailure.RUNTIME_ERROR, "docker run: " + run.summary());
      }
      return endpoint(instance.id(), instance.user(), port);
    }, false);
  }

  @Override
  public Future<Void> stop(String instanceId) {
    return vertx.executeBlocking(() -> {
      Commands.Result removed = commands.run(removeCommand(instanceId), TIMEOUT);
      if (!removed.ok() && !removed.err().contains("No such container")) {
        throw new IOException("docker rm: " + removed.summary());
      }
      return null;
    }, false);
  }

  /** Rows of reservation id, state, user, port. */
  private List<String[]> containers() throws IOException {
    Commands.Result ps = commands.run(listCommand(), TIMEOUT);
    if (!ps.ok()) {
      throw new IOException("docker ps: " + ps.summary());
    }
    List<String[]> rows = new ArrayList<>();
    for (String line : ps.out().split("\\R")) {
      String[] cells = line.split("\t");
      if (cells.length == 4 && !cells[0].isBlank()) {
        rows.add(cells);
      }
    }
    return rows;
  }

  private synchronized int freePort() throws IOException {
    Set<Integer> taken = new HashSet<>();
    for (String[] c : containers()) {
      taken.add(Integer.parseInt(c[3]));
    }
    for (int port = ports.first(); port <= ports.last(); port++) {
      if (!taken.contains(port)) {
        return port;
      }
    }
    throw new InstanceFailure(InstanceFailure.RUNTIME_ERROR, "no free port in " + ports);
  }

  /** The image generates its host key when it starts: bounded wait for it. */
  private SshEndpoint endpoint(String id, String user, int port) throws IOException {
    for (int attempt = 0; attempt < 60; attempt++) {
      Commands.Result key = commands.run(hostKeyCommand(id), TIMEOUT);
      if (key.ok() && !key.out().isBlank()) {
        String hostKey = SshKeys.withoutComment(key.out());
        return new SshEndpoint(publicAddress, port, user, SshKeys.fingerprint(hostKey), hostKey);
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new InstanceFailure(InstanceFailure.TIMEOUT, "container " + containerName(id) + " has no host key");
  }
}
