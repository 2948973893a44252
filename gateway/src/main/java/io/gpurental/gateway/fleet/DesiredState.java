package io.gpurental.gateway.fleet;

import java.time.OffsetDateTime;
import java.util.List;

/** Everything that should run on a host now, at a version that grows with every change. */
record DesiredState(long version, List<Instance> instances, List<String> prePull, int imageCacheLimitGb) {
  /**
   * One instance the agent must have: its Unix user, end, renter key and GPUs (index and UUID),
   * the image and ports (null: none chosen) and the limits (null: made before Fleet III).
   */
  record Instance(String id, String user, OffsetDateTime endsAt, String sshPublicKey, List<Integer> gpuIndexes,
      List<String> gpuUuids, Fleet.Image image, Fleet.Limits limits) {}
}
