package io.gpurental.gateway.fleet;

import java.time.OffsetDateTime;
import java.util.List;

/** Everything that should run on a host now, at a version that grows with every change. */
record DesiredState(long version, List<Instance> instances) {
  /** One instance the agent must have: its Unix user, end, renter key and GPUs (index and UUID). */
  record Instance(String id, String user, OffsetDateTime endsAt, String sshPublicKey, List<Integer> gpuIndexes,
      List<String> gpuUuids) {}
}
