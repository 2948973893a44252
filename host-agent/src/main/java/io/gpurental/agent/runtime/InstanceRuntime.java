package io.gpurental.agent.runtime;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.SshEndpoint;
import io.vertx.core.Future;
import java.util.List;

/**
 * Where instances live (Unix users and sshd, containers, or nothing at all). The reconciler calls
 * one operation per instance at a time; implementations never block the calling event loop.
 */
public interface InstanceRuntime {

  /** What exists now, found from the runtime itself (files, processes, containers). */
  Future<List<ActualInstance>> list();

  /** Creates the instance and answers how to log in; fails with {@link InstanceFailure}. */
  Future<SshEndpoint> start(DesiredInstance instance);

  /** Removes every trace of the instance; succeeds when there is nothing to remove. */
  Future<Void> stop(String instanceId);

  /** The container ports published for a running instance (only the container runtime has any). */
  default List<io.gpurental.agent.protocol.InstanceReport.Port> ports(String instanceId) {
    return List.of();
  }

  /** One instance found in the runtime; {@code ssh} is null when it is not (or no longer) healthy. */
  record ActualInstance(String id, SshEndpoint ssh, String failureReason) {
    public boolean healthy() {
      return ssh != null;
    }
  }
}
