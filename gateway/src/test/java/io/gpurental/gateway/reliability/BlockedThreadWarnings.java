package io.gpurental.gateway.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Vert.x's blocked-thread warnings in a node's log, each with the stack trace it carries, told
 * apart by what the thread was doing: blocking work (sleeping, waiting on a lock or a future,
 * blocking socket or file I/O, JDBC, Flyway, stripe-java, launching a process), which must never
 * run on an event loop, from CPU work that a starved machine merely made slow (a cold JVM loading
 * classes or JIT-linking method handles, at load 30-40 on 2 cores, passed 2 s of wall time).
 */
record BlockedThreadWarnings(List<Warning> warnings) {
  private static final Pattern WARNING = Pattern.compile("Thread (\\S+) has been blocked for (\\d+) ms");
  private static final List<String> BLOCKING_FRAMES = List.of("java.lang.Thread.sleep", "java.lang.Object.wait",
      "LockSupport.park", "Unsafe.park", "java.net.SocketInputStream", "sun.nio.ch.NioSocketImpl",
      "java.io.FileInputStream.read", "java.io.FileOutputStream.write", "java.nio.file.Files.",
      "org.postgresql.", "org.flywaydb.", "com.stripe.", "java.lang.ProcessBuilder.start", "CompletableFuture.get",
      "CompletableFuture.join", "FutureTask.get", "io.vertx.core.Future.await", "java.net.InetAddress.getAllByName",
      "io.zonky.");

  /** One warning: the thread, how long, and the frames of its stack trace. */
  record Warning(String node, String thread, long millis, List<String> frames) {
    /** The first frame that shows blocking work, or null when the thread was only computing. */
    String blockingFrame() {
      return frames.stream().filter(frame -> BLOCKING_FRAMES.stream().anyMatch(frame::contains)).findFirst()
          .orElse(null);
    }

    @Override
    public String toString() {
      return node + " " + thread + " " + millis + " ms " + (frames.isEmpty() ? "(no stack)" : frames.get(0).trim())
          + (blockingFrame() == null ? "" : " (blocking: " + blockingFrame().trim() + ")");
    }
  }

  static BlockedThreadWarnings in(GatewayProcess node) {
    return new BlockedThreadWarnings(parse(node.name(), node.logLines()));
  }

  /** The warnings in {@code lines} of {@code node}'s log, each with the frames that follow it. */
  static List<Warning> parse(String node, List<String> lines) {
    List<Warning> found = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher warning = WARNING.matcher(lines.get(i));
      if (!warning.find()) {
        continue;
      }
      List<String> frames = new ArrayList<>();
      for (int j = i + 1; j < lines.size() && (lines.get(j).startsWith("\t")
          || lines.get(j).startsWith("io.vertx.core.VertxException")); j++) {
        if (lines.get(j).startsWith("\tat ")) {
          frames.add(lines.get(j));
        }
      }
      found.add(new Warning(node, warning.group(1), Long.parseLong(warning.group(2)), frames));
    }
    return found;
  }

  /** The warnings whose stack shows blocking work. */
  List<Warning> blocking() {
    return warnings.stream().filter(warning -> warning.blockingFrame() != null).toList();
  }

  long longestMillis() {
    return warnings.stream().mapToLong(Warning::millis).max().orElse(0);
  }
}
