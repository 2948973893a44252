package io.gpurental.agent.runtime.container;

import io.gpurental.agent.runtime.InstanceFailure;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates an instance's container, asking for its disk limit first. Only the engine's own answer
 * that its storage driver has none ({@link Names#quotaRefusal}) switches the limit off, for the
 * agent's lifetime, said once in the log and in the host's facts; any other error fails this
 * create and leaves the limit on for the next. Blocking: workers only.
 */
final class ContainerCreator {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerCreator.class);

  private final Engine engine;
  /** Whether the engine holds a disk limit: null until a create with one said. */
  private volatile Boolean diskLimit;

  ContainerCreator(Engine engine) {
    this.engine = engine;
  }

  Boolean diskLimit() {
    return diskLimit;
  }

  /** Whether the next container should ask for a disk limit. */
  boolean quotaWanted() {
    return diskLimit != Boolean.FALSE;
  }

  void create(ContainerSpec spec) throws IOException {
    boolean podman = engine.podman();
    boolean withLimit = spec.diskQuota() && spec.instance().limits() != null
        && spec.instance().limits().diskGb() != null;
    try {
      engine.create(spec.name(), podman ? spec.podman() : spec.docker(), podman);
      if (withLimit) {
        diskLimit = true;
      }
    } catch (IOException e) {
      if (!withLimit || !Names.quotaRefusal(e.getMessage())) {
        throw failure(e);
      }
      diskLimit = false;
      LOG.warn("the engine's storage driver cannot limit a container's disk ({}); instances run without"
          + " a disk limit", e.getMessage());
      ContainerSpec without = new ContainerSpec(spec.name(), spec.instance(), spec.labels(), spec.network(),
          spec.volume(), spec.bundle(), spec.keys(), spec.sshPort(), spec.ports(), false);
      engine.create(spec.name(), podman ? without.podman() : without.docker(), podman);
    }
  }

  /** A create or start error about the GPUs' CDI devices is {@code gpu_unavailable}; others stay as they are. */
  static IOException failure(IOException e) {
    String m = String.valueOf(e.getMessage());
    if (m.toLowerCase(java.util.Locale.ROOT).contains("cdi") || m.contains("nvidia.com/gpu")) {
      throw new InstanceFailure(InstanceFailure.GPU_UNAVAILABLE, m);
    }
    return e;
  }
}
