package io.gpurental.agent.runtime.container;

import io.gpurental.agent.protocol.SshEndpoint;
import io.gpurental.agent.runtime.Commands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A renter with a key pair who logs in with the real ssh client and a strict known_hosts. */
public final class Ssh {
  final Path key;
  public final String publicKey;
  private final Path dir;

  public Ssh(Path dir) throws IOException {
    this.dir = dir;
    this.key = dir.resolve("renter_key");
    PodmanService.ok("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "renter", "-f", key.toString());
    this.publicKey = Files.readString(dir.resolve("renter_key.pub")).strip();
  }

  /** Runs {@code command} as the endpoint's user; known_hosts holds only the reported host key. */
  public Commands.Result run(SshEndpoint ssh, String command) throws IOException {
    return Commands.system().run(argv(ssh, command), Duration.ofSeconds(60));
  }

  /**
   * A session fed from {@code stdin}: with {@code command} null the login shell reads its commands
   * from it (no terminal), else the command gets it as its input.
   */
  public Commands.Result session(SshEndpoint ssh, String command, Path stdin) throws IOException {
    return session(ssh, command, stdin, false);
  }

  /** {@code tty}: with a terminal ({@code ssh -tt}), as an interactive login has; output lines end in CR LF. */
  public Commands.Result session(SshEndpoint ssh, String command, Path stdin, boolean tty) throws IOException {
    List<String> argv = argv(ssh, command);
    if (tty) {
      argv.add(1, "-tt");
    }
    Process p = new ProcessBuilder(argv).redirectInput(stdin.toFile()).start();
    java.util.concurrent.CompletableFuture<byte[]> err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return p.getErrorStream().readAllBytes();
      } catch (IOException e) {
        return new byte[0];
      }
    });
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("ssh did not finish within 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    return new Commands.Result(p.exitValue(), out, new String(err.join(), java.nio.charset.StandardCharsets.UTF_8));
  }

  private List<String> argv(SshEndpoint ssh, String command) throws IOException {
    Path knownHosts = dir.resolve("known_hosts-" + ssh.port());
    Files.writeString(knownHosts, "[" + ssh.host() + "]:" + ssh.port() + " " + ssh.hostKey() + "\n");
    List<String> argv = new java.util.ArrayList<>(List.of("ssh", "-i", key.toString(), "-p", Integer.toString(ssh.port()),
        "-o", "UserKnownHostsFile=" + knownHosts, "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes",
        "-o", "ConnectTimeout=10", "-o", "LogLevel=ERROR", ssh.user() + "@" + ssh.host()));
    if (command != null) {
      argv.add(command);
    }
    return argv;
  }
}
