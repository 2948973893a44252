package io.gpurental.agent.protocol;

/** The agent's word on one instance ({@code PUT /api/v1/agent/instances/{id}}). */
public record InstanceReport(String state, SshEndpoint ssh, String reason) {

  public static InstanceReport preparing() {
    return new InstanceReport("preparing", null, null);
  }

  public static InstanceReport running(SshEndpoint ssh) {
    return new InstanceReport("running", ssh, null);
  }

  public static InstanceReport stopped() {
    return new InstanceReport("stopped", null, null);
  }

  public static InstanceReport failed(String reason) {
    return new InstanceReport("failed", null, reason);
  }
}
