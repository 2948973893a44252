package io.gpurental.bench;

/** Samples a process's resident memory four times a second on a thread of its own; keeps the highest. */
final class RssSampler implements AutoCloseable {
  private final Thread thread;
  private volatile double max;
  private volatile boolean running = true;

  RssSampler(long pid) {
    thread = new Thread(() -> {
      while (running) {
        max = Math.max(max, ProcessStats.rssMiB(pid));
        try {
          Thread.sleep(250);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "rss-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  /** The highest resident set size seen since the start or the last reset, in MiB. */
  double max() {
    return max;
  }

  void resetMax() {
    max = 0;
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
