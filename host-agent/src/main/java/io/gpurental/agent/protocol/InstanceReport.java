package io.gpurental.agent.protocol;

import java.util.List;

/**
 * The agent's word on one instance ({@code PUT /api/v1/agent/instances/{id}}); {@code pull} only
 * with {@code pulling}, {@code ports} only with {@code running} (container runtime).
 */
public record InstanceReport(String state, SshEndpoint ssh, String reason, Pull pull, List<Port> ports) {

  public InstanceReport(String state, SshEndpoint ssh, String reason) {
    this(state, ssh, reason, null, null);
  }

  /** Bytes of an image pull so far; {@code bytesTotal} null while unknown. */
  public record Pull(long bytesDone, Long bytesTotal) {
  }

  /** A published container port. */
  public record Port(int containerPort, int hostPort) {
  }

  public static InstanceReport preparing() {
    return new InstanceReport("preparing", null, null);
  }

  public static InstanceReport pulling(long bytesDone, Long bytesTotal) {
    return new InstanceReport("pulling", null, null, new Pull(bytesDone, bytesTotal), null);
  }

  public static InstanceReport running(SshEndpoint ssh) {
    return new InstanceReport("running", ssh, null);
  }

  public static InstanceReport running(SshEndpoint ssh, List<Port> ports) {
    return new InstanceReport("running", ssh, null, null, ports.isEmpty() ? null : List.copyOf(ports));
  }

  public static InstanceReport stopped() {
    return new InstanceReport("stopped", null, null);
  }

  public static InstanceReport failed(String reason) {
    return new InstanceReport("failed", null, reason);
  }
}
