package io.gpurental.agent.runtime.container;

import io.gpurental.agent.runtime.Commands;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After an instance is removed no process may remain on its GPUs. A GPU that still has one is kept
 * as dirty: reported in heartbeats and refused to new instances until a later check finds it clean.
 */
final class GpuCleanliness {
  private static final Logger LOG = LoggerFactory.getLogger(GpuCleanliness.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(15);

  private final String nvidiaSmi;
  private final Commands commands;
  private final Set<String> dirty = ConcurrentHashMap.newKeySet();

  GpuCleanliness(String nvidiaSmi, Commands commands) {
    this.nvidiaSmi = nvidiaSmi;
    this.commands = commands;
  }

  Set<String> dirty() {
    return Set.copyOf(dirty);
  }

  /** Checks these GPUs and every GPU already dirty. */
  void check(List<String> uuids) {
    Set<String> toCheck = ConcurrentHashMap.newKeySet();
    toCheck.addAll(uuids);
    toCheck.addAll(dirty);
    if (toCheck.isEmpty() || nvidiaSmi == null) {
      return;
    }
    Set<String> busy;
    try {
      busy = busyGpus();
    } catch (IOException e) {
      LOG.warn("cannot ask nvidia-smi for compute processes ({}); GPUs {} stay as they were", e.getMessage(), toCheck);
      return;
    }
    for (String uuid : toCheck) {
      if (busy.contains(uuid)) {
        if (dirty.add(uuid)) {
          LOG.error("GPU {} still runs a process after its instance was removed: unhealthy until clean", uuid);
        }
      } else if (dirty.remove(uuid)) {
        LOG.info("GPU {} is clean again", uuid);
      }
    }
  }

  private Set<String> busyGpus() throws IOException {
    Commands.Result r = commands.run(List.of(nvidiaSmi, "--query-compute-apps=pid,gpu_uuid",
        "--format=csv,noheader"), TIMEOUT);
    if (!r.ok()) {
      throw new IOException(r.summary());
    }
    Set<String> busy = ConcurrentHashMap.newKeySet();
    for (String line : r.out().split("\\R")) {
      String[] cells = line.split(",");
      if (cells.length == 2 && !cells[1].isBlank()) {
        busy.add(cells[1].strip());
      }
    }
    return busy;
  }
}
