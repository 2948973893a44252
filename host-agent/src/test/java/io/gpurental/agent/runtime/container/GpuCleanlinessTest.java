package io.gpurental.agent.runtime.container;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.agent.runtime.Commands;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A GPU that still runs a process after its instance is gone stays dirty until a check finds it clean. */
class GpuCleanlinessTest {

  @Test
  void aGpuWithALeftoverProcessIsDirtyUntilClean() {
    AtomicReference<String> apps = new AtomicReference<>("4242, GPU-aaa\n");
    Commands smi = (argv, timeout) -> {
      assertEquals(List.of("nvidia-smi", "--query-compute-apps=pid,gpu_uuid", "--format=csv,noheader"), argv);
      return new Commands.Result(0, apps.get(), "");
    };
    GpuCleanliness gpus = new GpuCleanliness("nvidia-smi", smi);
    gpus.check(List.of("GPU-aaa", "GPU-bbb"));
    assertEquals(Set.of("GPU-aaa"), gpus.dirty());
    apps.set("");
    gpus.check(List.of());
    assertEquals(Set.of(), gpus.dirty(), "a later check (any stop) finds it clean");
  }
}
