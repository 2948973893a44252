package io.gpurental.agent.runtime;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.SshEndpoint;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * No processes: an instance is "running" after a delay, with a made-up endpoint and a random (but
 * well-formed) ed25519 host key. For the sandbox's demo fleet and tests.
 */
public final class SimulatedRuntime implements InstanceRuntime {
  private final Vertx vertx;
  private final Duration runningDelay;
  private final String host;
  private final PortRange ports;
  private final Map<String, SshEndpoint> running = new LinkedHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private int nextPort;

  public SimulatedRuntime(Vertx vertx, Duration runningDelay, String host, PortRange ports) {
    this.vertx = vertx;
    this.runningDelay = runningDelay;
    this.host = host;
    this.ports = ports;
    this.nextPort = ports.first();
  }

  @Override
  public synchronized Future<List<ActualInstance>> list() {
    List<ActualInstance> found = new ArrayList<>();
    running.forEach((id, ssh) -> found.add(new ActualInstance(id, ssh, null)));
    return Future.succeededFuture(found);
  }

  @Override
  public Future<SshEndpoint> start(DesiredInstance instance) {
    return vertx.timer(Math.max(1, runningDelay.toMillis())).map(ignored -> {
      synchronized (this) {
        SshEndpoint ssh = new SshEndpoint(host, port(), instance.user(), null, hostKey());
        ssh = new SshEndpoint(ssh.host(), ssh.port(), ssh.user(), SshKeys.fingerprint(ssh.hostKey()), ssh.hostKey());
        running.put(instance.id(), ssh);
        return ssh;
      }
    });
  }

  @Override
  public synchronized Future<Void> stop(String instanceId) {
    running.remove(instanceId);
    return Future.succeededFuture();
  }

  private int port() {
    int port = nextPort;
    nextPort = nextPort == ports.last() ? ports.first() : nextPort + 1;
    return port;
  }

  /** The OpenSSH wire form of an ed25519 key: string "ssh-ed25519", then the 32 key bytes. */
  private String hostKey() {
    byte[] type = "ssh-ed25519".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] key = new byte[32];
    random.nextBytes(key);
    java.nio.ByteBuffer blob = java.nio.ByteBuffer.allocate(4 + type.length + 4 + key.length);
    blob.putInt(type.length).put(type).putInt(key.length).put(key);
    return "ssh-ed25519 " + Base64.getEncoder().encodeToString(blob.array());
  }
}
