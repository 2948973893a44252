package io.gpurental.agent.runtime;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.SshEndpoint;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each instance is a Unix user with the renter's key and its own sshd on a port of the range,
 * allowing only that user and setting CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES. Its files live
 * in {@code <state-dir>/instances/<id>/}, which is also how a restarted agent finds it again. Needs
 * root (useradd, userdel, sshd). All work runs on worker threads.
 *
 * <p>For trusted, single-tenant hosts only (the gateway rents them whole): users share the host's
 * kernel, network, /proc and devices. Still, one tenant after another never share a UID, the key is
 * written with the tenant's own privileges, and what a tenant leaves in shared places is swept.
 */
public final class ProcessRuntime implements InstanceRuntime {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessRuntime.class);
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

  private final Vertx vertx;
  private final InstanceFiles files;
  private final String publicAddress;
  private final PortRange ports;
  private final String sshd;
  private final Commands commands;
  private final UidAllocator uids;
  private final TenantFiles tenantFiles;

  public ProcessRuntime(Vertx vertx, Path stateDir, String publicAddress, PortRange ports, String sshd,
      Commands commands) {
    this.vertx = vertx;
    this.files = new InstanceFiles(stateDir.resolve("instances"));
    this.publicAddress = publicAddress;
    this.ports = ports;
    this.sshd = sshd;
    this.commands = commands;
    this.uids = new UidAllocator(stateDir, Path.of("/etc/passwd"));
    this.tenantFiles = new TenantFiles(commands);
  }

  @Override
  public Future<List<ActualInstance>> list() {
    return vertx.executeBlocking(this::scan, false);
  }

  @Override
  public Future<SshEndpoint> start(DesiredInstance instance) {
    return vertx.executeBlocking(() -> create(instance), false);
  }

  @Override
  public Future<Void> stop(String instanceId) {
    return vertx.executeBlocking(() -> {
      remove(instanceId);
      return null;
    }, false);
  }

  private List<ActualInstance> scan() throws IOException {
    List<ActualInstance> found = new ArrayList<>();
    for (String id : files.ids()) {
      InstanceFiles.State state = files.read(id);
      boolean alive = state != null && state.endpoint() != null && sshdPid(id) != null;
      found.add(alive ? new ActualInstance(id, state.endpoint(), null)
          : new ActualInstance(id, null, InstanceFailure.SSHD_FAILED));
    }
    return found;
  }

  private SshEndpoint create(DesiredInstance instance) throws IOException {
    validate(instance);
    String id = instance.id();
    String user = instance.user();
    files.create(id, user);
    Path home = Path.of("/home", user);
    TenantFiles.removeLeftoverHome(home);
    int uid = uids.next();
    files.markUid(id, uid);
    Commands.Result group = run("groupadd", "-g", Integer.toString(uid), user);
    Commands.Result added = !group.ok() ? group : run("useradd", "-m", "-d", home.toString(), "-u",
        Integer.toString(uid), "-g", Integer.toString(uid), "-p", "*", "-s", "/bin/bash", "-c", "gpu instance " + id, user);
    if (!added.ok()) {
      throw new InstanceFailure(InstanceFailure.USER_SETUP_FAILED, "useradd " + user + ": " + added.summary());
    }
    files.markUserCreated(id);
    tenantFiles.installKey(user, home, instance.sshPublicKey());
    Path dir = files.dir(id);
    Commands.Result keygen = run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "gpu-instance-" + id,
        "-f", dir.resolve("host_key").toString());
    if (!keygen.ok()) {
      throw new InstanceFailure(InstanceFailure.SSHD_FAILED, "ssh-keygen: " + keygen.summary());
    }
    int port = allocatePort(id);
    Files.writeString(files.sshdConfig(id), SshdConfig.render(dir, publicAddress, port, user, instance.gpuUuids()));
    Files.createDirectories(Path.of("/run/sshd"));
    Commands.Result started = run(sshd, "-f", files.sshdConfig(id).toString(), "-E", dir.resolve("sshd.log").toString());
    if (!started.ok() || !awaitPidFile(id)) {
      throw new InstanceFailure(InstanceFailure.SSHD_FAILED, "sshd on port " + port + " did not start: "
          + started.summary() + " " + tail(dir.resolve("sshd.log")));
    }
    String hostKey = SshKeys.withoutComment(Files.readString(dir.resolve("host_key.pub")));
    SshEndpoint endpoint = new SshEndpoint(publicAddress, port, user, fingerprint(dir), hostKey);
    files.markRunning(id, endpoint);
    return endpoint;
  }

  private void validate(DesiredInstance instance) {
    if (!instance.id().matches("[A-Za-z0-9_-]{1,64}")) {
      throw new InstanceFailure(InstanceFailure.RUNTIME_ERROR, "unusable instance id " + instance.id());
    }
    if (instance.user() == null || !instance.user().matches("[a-z_][a-z0-9_-]{0,31}")) {
      throw new InstanceFailure(InstanceFailure.USER_SETUP_FAILED, "unusable user name " + instance.user());
    }
    if (!SshKeys.isPlainPublicKey(instance.sshPublicKey())) {
      throw new InstanceFailure(InstanceFailure.USER_SETUP_FAILED, "the renter's key is not one plain public key line");
    }
  }

  /** Serialized so that two instances starting at once never pick the same port. */
  private synchronized int allocatePort(String id) throws IOException {
    List<Integer> taken = new ArrayList<>();
    for (String other : files.ids()) {
      InstanceFiles.State state = files.read(other);
      if (state != null && state.port() > 0) {
        taken.add(state.port());
      }
    }
    for (int port = ports.first(); port <= ports.last(); port++) {
      if (!taken.contains(port) && bindable(port)) {
        files.markPort(id, port);
        return port;
      }
    }
    throw new InstanceFailure(InstanceFailure.SSHD_FAILED, "no free port in " + ports);
  }

  private boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(publicAddress, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** sshd forks into the background and then writes its pid file: bounded wait for it. */
  private boolean awaitPidFile(String id) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      if (sshdPid(id) != null) {
        return true;
      }
      pause(50);
    }
    return false;
  }

  /** The pid of this instance's sshd if it runs (checked against its command line, so a reused pid is not it). */
  private Long sshdPid(String id) {
    try {
      String text = Files.readString(files.pidFile(id)).strip();
      long pid = Long.parseLong(text);
      String cmdline = Files.readString(Path.of("/proc", text, "cmdline")).replace('\0', ' ');
      return cmdline.contains(files.sshdConfig(id).toString()) ? pid : null;
    } catch (IOException | NumberFormatException e) {
      return null;
    }
  }

  private String fingerprint(Path dir) throws IOException {
    Commands.Result printed = run("ssh-keygen", "-l", "-f", dir.resolve("host_key.pub").toString());
    String[] parts = printed.out().strip().split("\\s+");
    if (!printed.ok() || parts.length < 2) {
      throw new InstanceFailure(InstanceFailure.SSHD_FAILED, "ssh-keygen -l: " + printed.summary());
    }
    return parts[1];
  }

  /** sshd and its sessions, every process of the user, the user and home, the instance's files. */
  private void remove(String id) throws IOException {
    InstanceFiles.State state = files.read(id);
    Long pid = sshdPid(id);
    if (pid != null) {
      run("pkill", "-KILL", "-P", Long.toString(pid));
      ProcessHandle.of(pid).ifPresent(this::terminate);
    }
    if (state != null && state.userCreated()) {
      run("pkill", "-KILL", "-u", state.user());
      if (state.uid() >= 0) {
        tenantFiles.sweep(state.user(), state.uid());
      }
      deleteUser(state.user());
    } else if (state != null) {
      run("groupdel", state.user());
    }
    files.delete(id);
    LOG.info("instance {} removed (sshd stopped, user {} deleted)", id, state == null ? "-" : state.user());
  }

  private void deleteUser(String user) throws IOException {
    for (int attempt = 1; ; attempt++) {
      run("pkill", "-KILL", "-u", user);
      Commands.Result deleted = run("userdel", "-r", user);
      // 6: no such user (already gone); 12: the home was already gone
      if (deleted.ok() || deleted.exit() == 6 || deleted.exit() == 12) {
        run("groupdel", user);
        return;
      }
      if (attempt == 5) {
        throw new IOException("userdel " + user + " failed: " + deleted.summary());
      }
      pause(100L * attempt);
    }
  }

  private void terminate(ProcessHandle process) {
    process.destroy();
    try {
      process.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS);
    } catch (Exception e) {
      process.destroyForcibly();
    }
  }

  private Commands.Result run(String... argv) throws IOException {
    return commands.run(List.of(argv), COMMAND_TIMEOUT);
  }

  private static String tail(Path log) {
    try (Stream<String> lines = Files.lines(log)) {
      List<String> all = lines.toList();
      return String.join(" | ", all.subList(Math.max(0, all.size() - 3), all.size()));
    } catch (IOException e) {
      return "";
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
