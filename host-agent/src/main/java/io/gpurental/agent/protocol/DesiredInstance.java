package io.gpurental.agent.protocol;

import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One instance the gateway wants on this host now. {@code image} and {@code limits} come with
 * Fleet III (the container runtime); null from an older gateway and ignored by the process runtime.
 */
public record DesiredInstance(String id, String user, Instant endsAt, String sshPublicKey,
    List<Gpu> gpus, Image image, Limits limits) {

  public DesiredInstance(String id, String user, Instant endsAt, String sshPublicKey, List<Gpu> gpus) {
    this(id, user, endsAt, sshPublicKey, gpus, null, null);
  }

  /** A GPU given to the instance. */
  public record Gpu(int index, String uuid) {
  }

  /** The image to run and the container ports to publish besides SSH. */
  public record Image(String ref, List<Integer> ports) {
  }

  /** The instance's share of the host; a null field is not limited by the gateway. */
  public record Limits(Double cpus, Long memoryMib, Long diskGb, Long pids, Long shmMib) {
  }

  /** The UUIDs, comma-separated, as CUDA_VISIBLE_DEVICES and docker's --gpus want them. */
  public String gpuUuids() {
    return gpus.stream().map(Gpu::uuid).collect(Collectors.joining(","));
  }
}
