package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import java.time.Instant;
import java.util.List;

/**
 * The fleet's port for reservations: start and stop the instance of a reservation on its host.
 * Host agents implement it ({@link AgentFleet}); the sandbox's demo hosts have (simulated) agents
 * too. Both calls may be repeated for the same reservation and must be harmless then.
 */
public interface Fleet {
  /**
   * What the host needs to start an instance: its GPUs, the renter's key, and when it ends; and
   * when it was due (window start or payment, whichever is later), which time-to-ready counts from.
   */
  record Launch(String reservationId, String hostId, List<Integer> gpuIndexes, String sshPublicKey, Instant endsAt,
      Instant dueAt, Image image, Limits limits) {
    /** An instance without an image or limits (a host whose runtime uses neither). */
    public Launch(String reservationId, String hostId, List<Integer> gpuIndexes, String sshPublicKey, Instant endsAt,
        Instant dueAt) {
      this(reservationId, hostId, gpuIndexes, sshPublicKey, endsAt, dueAt, null, null);
    }
  }

  /**
   * The container image to run (pinned template or allowed custom reference) and the container
   * ports to publish besides SSH; null: none chosen (no template exists), the agent's own default.
   */
  record Image(String ref, List<Integer> ports) {}

  /** The offer's per-GPU share × the instance's GPUs, and a pids limit and shm size that follow from it. */
  record Limits(int cpus, long memoryMib, int diskGb, int pids, long shmMib) {
    /** Per GPU: {@code cpus} cores, {@code ramGb} and {@code diskGb} of the host; 4096 pids; shm an eighth of memory. */
    public static Limits of(int gpus, int cpusPerGpu, int ramGbPerGpu, int diskGbPerGpu) {
      long memoryMib = (long) ramGbPerGpu * gpus * 1024;
      return new Limits(cpusPerGpu * gpus, memoryMib, diskGbPerGpu * gpus, 4096 * gpus, memoryMib / 8);
    }
  }

  /** Starts the instance; the host reports how it went through {@code events}. */
  Future<Void> start(Launch launch, InstanceEvents events);

  Future<Void> stop(String reservationId);

  /** The instance's window now ends at {@code endsAt} (a paid extension); harmless when repeated. */
  default Future<Void> extend(String reservationId, Instant endsAt) {
    return Future.succeededFuture();
  }

  /**
   * Where to report instances this node did not start (started by another node, or before a
   * restart); registered once at boot.
   */
  default void reportTo(InstanceEvents events) {}
}
