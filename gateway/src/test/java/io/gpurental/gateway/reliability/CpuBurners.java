package io.gpurental.gateway.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Child processes that each spin one core at 100 % (a shell's empty loop), to saturate the
 * machine for as long as a test needs it. Always {@link #close}d: a burner never outlives its test
 * (nor the test JVM, through a shutdown hook).
 */
final class CpuBurners implements AutoCloseable {
  private final List<Process> burners = new ArrayList<>();

  private CpuBurners() {}

  /** One burner per core this JVM sees. */
  static CpuBurners onEveryCore() {
    return start(Runtime.getRuntime().availableProcessors());
  }

  static CpuBurners start(int count) {
    CpuBurners started = new CpuBurners();
    try {
      for (int i = 0; i < count; i++) {
        Process burner = new ProcessBuilder("sh", "-c", "while :; do :; done")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.burners.add(burner);
        Runtime.getRuntime().addShutdownHook(new Thread(burner::destroyForcibly));
      }
      return started;
    } catch (IOException e) {
      started.close();
      throw new UncheckedIOException("cannot start a CPU burner", e);
    }
  }

  int count() {
    return burners.size();
  }

  /** Whether every burner still spins (a burner that died would make the test prove nothing). */
  boolean allRunning() {
    return burners.stream().allMatch(Process::isAlive);
  }

  @Override
  public void close() {
    burners.forEach(Process::destroyForcibly);
    for (Process burner : burners) {
      try {
        burner.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
