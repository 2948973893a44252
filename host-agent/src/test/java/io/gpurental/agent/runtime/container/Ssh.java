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
    Path knownHosts = dir.resolve("known_hosts-" + ssh.port());
    Files.writeString(knownHosts, "[" + ssh.host() + "]:" + ssh.port() + " " + ssh.hostKey() + "\n");
    return Commands.system().run(List.of("ssh", "-i", key.toString(), "-p", Integer.toString(ssh.port()),
        "-o", "UserKnownHostsFile=" + knownHosts, "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes",
        "-o", "ConnectTimeout=10", "-o", "LogLevel=ERROR", ssh.user() + "@" + ssh.host(), command),
        Duration.ofSeconds(60));
  }
}
