package io.gpurental.agent.protocol;

import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/** One instance the gateway wants on this host now. */
public record DesiredInstance(String id, String user, Instant endsAt, String sshPublicKey,
    List<Gpu> gpus) {

  /** A GPU given to the instance. */
  public record Gpu(int index, String uuid) {
  }

  /** The UUIDs, comma-separated, as CUDA_VISIBLE_DEVICES and docker's --gpus want them. */
  public String gpuUuids() {
    return gpus.stream().map(Gpu::uuid).collect(Collectors.joining(","));
  }
}
