package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.agent.runtime.Commands;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * A renter's real {@code ssh} login to an instance, exactly as docs/renting.md and docs/operating.md tell a renter: the
 * private key of a fresh pair, and a known_hosts file holding only the reservation's
 * {@code ssh.known_hosts} line, with strict host key checking (no trust on first use).
 */
record SshLogin(Path key, Path knownHosts, int port, String user) {

  /** A fresh ed25519 key pair made by ssh-keygen. */
  record KeyPair(Path privateKey, String publicKey) {
  }

  static KeyPair newKeyPair(Path dir) {
    Path key = dir.resolve("id_ed25519_" + UUID.randomUUID().toString().substring(0, 8));
    Commands.Result made = ProcessAgentHost.run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "renter",
        "-f", key.toString());
    assertEquals(0, made.exit(), made.summary());
    try {
      return new KeyPair(key, Files.readString(Path.of(key + ".pub")).strip());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The login a running reservation's {@code ssh} object describes. */
  static SshLogin of(JsonObject ssh, KeyPair key, Path dir) {
    String endpoint = ssh.getString("endpoint");
    int port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    Path knownHosts = dir.resolve("known_hosts_" + port);
    try {
      Files.writeString(knownHosts, ssh.getString("known_hosts") + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new SshLogin(key.privateKey(), knownHosts, port, ssh.getString("user"));
  }

  /** Runs {@code command} on the instance as the renter; exit 255 when ssh cannot log in. */
  Commands.Result run(String command) {
    return ProcessAgentHost.run("ssh", "-i", key.toString(), "-p", Integer.toString(port),
        "-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + knownHosts, "-o", "BatchMode=yes",
        "-o", "IdentitiesOnly=yes", "-o", "ConnectTimeout=5", user + "@127.0.0.1", command);
  }

  /** The {@code SHA256:…} fingerprint {@code ssh-keygen -l} prints for the key in the known_hosts line. */
  String fingerprintAsSshKeygenPrintsIt() {
    Commands.Result listed = ProcessAgentHost.run("ssh-keygen", "-l", "-f", knownHosts.toString());
    assertEquals(0, listed.exit(), listed.summary());
    return listed.out().strip().split(" ")[1];
  }
}
