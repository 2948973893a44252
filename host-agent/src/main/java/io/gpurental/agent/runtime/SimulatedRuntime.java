package io.gpurental.agent.runtime;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.SshEndpoint;
import io.gpurental.agent.simulated.SimulatedHost;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
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
 * well-formed) ed25519 host key. For the sandbox's demo fleet and tests. With a {@link
 * SimulatedHost}, its provisioning faults decide how a start goes (fail, take longer, wait for a
 * release) and running instances make their GPUs busy.
 */
public final class SimulatedRuntime implements InstanceRuntime {
  private final Vertx vertx;
  private final Duration runningDelay;
  private final String host;
  private final PortRange ports;
  private final SimulatedHost simulatedHost;
  private final Map<String, SshEndpoint> running = new LinkedHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private int nextPort;

  public SimulatedRuntime(Vertx vertx, Duration runningDelay, String host, PortRange ports) {
    this(vertx, runningDelay, host, ports, null);
  }

  public SimulatedRuntime(Vertx vertx, Duration runningDelay, String host, PortRange ports, SimulatedHost simulatedHost) {
    this.vertx = vertx;
    this.simulatedHost = simulatedHost;
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
    SimulatedHost.Provisioning plan = simulatedHost == null ? new SimulatedHost.Provisioning(null, null, false)
        : simulatedHost.nextStart();
    long delay = Math.max(1, plan.delayMs() != null ? plan.delayMs() : runningDelay.toMillis());
    Future<Void> ready = vertx.timer(delay).mapEmpty();
    if (plan.failReason() != null) {
      return ready.compose(v -> Future.failedFuture(new InstanceFailure(plan.failReason(), "simulated provisioning failure")));
    }
    if (plan.held()) {
      ready = ready.compose(v -> released());
    }
    return ready.map(ignored -> {
      synchronized (this) {
        SshEndpoint ssh = new SshEndpoint(host, port(), instance.user(), null, hostKey());
        ssh = new SshEndpoint(ssh.host(), ssh.port(), ssh.user(), SshKeys.fingerprint(ssh.hostKey()), ssh.hostKey());
        running.put(instance.id(), ssh);
        if (simulatedHost != null) {
          simulatedHost.busy(instance.id(), instance.gpus().stream().map(DesiredInstance.Gpu::index).toList());
        }
        return ssh;
      }
    });
  }

  /** Completes on this agent's context once the sandbox releases held starts. */
  private Future<Void> released() {
    Context context = vertx.getOrCreateContext();
    Promise<Void> released = Promise.promise();
    simulatedHost.whenReleased(() -> context.runOnContext(v -> released.complete()));
    return released.future();
  }

  @Override
  public synchronized Future<Void> stop(String instanceId) {
    running.remove(instanceId);
    if (simulatedHost != null) {
      simulatedHost.idle(instanceId);
    }
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
