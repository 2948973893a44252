package io.gpurental.gateway.reliability;

import java.util.concurrent.atomic.AtomicLong;

/** Polls a node's /health/ready without pause and notes when it first answered 503. */
final class ReadinessWatch {
  final AtomicLong firstUnreadyNanos = new AtomicLong();
  private final Thread thread;
  private volatile boolean stopped;

  private ReadinessWatch(GatewayProcess node) {
    thread = new Thread(() -> {
      while (!stopped && node.isAlive()) {
        if (node.readiness() == 503) {
          firstUnreadyNanos.compareAndSet(0, System.nanoTime());
        }
      }
    }, "readiness-watch");
    thread.setDaemon(true);
  }

  static ReadinessWatch start(GatewayProcess node) {
    ReadinessWatch watch = new ReadinessWatch(node);
    watch.thread.start();
    return watch;
  }

  void stop() throws InterruptedException {
    stopped = true;
    thread.join(30_000);
  }

  /** Milliseconds from {@code fromNanos} to {@code atNanos}, or -1 when it never happened. */
  long millisAfter(long fromNanos, long atNanos) {
    return atNanos == 0 ? -1 : (atNanos - fromNanos) / 1_000_000;
  }
}
