package io.gpurental.gateway.reliability;

import io.gpurental.gateway.testing.FreePorts;
import io.gpurental.gateway.testing.FreezableProxy;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The cluster's PostgreSQL: an embedded server on a data directory and port of its own, so it can
 * be stopped and started again on the same data, and frozen two ways: its processes stopped with
 * SIGSTOP (postmaster and every backend, as a paused VM or a stalled disk freezes them), or the
 * TCP proxy the nodes reach it through left silent.
 */
final class ClusterDatabase implements AutoCloseable {
  private final Path dataDirectory;
  private final int port = FreePorts.next();
  private final FreezableProxy proxy;
  private volatile EmbeddedPostgres server;
  private volatile boolean running;
  private final List<Long> stopped = new ArrayList<>();

  ClusterDatabase(Path dataDirectory) {
    this.dataDirectory = dataDirectory;
    start();
    this.proxy = FreezableProxy.start("127.0.0.1", port);
  }

  private EmbeddedPostgres startServer() {
    try {
      return EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(false).setPort(port)
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the cluster's PostgreSQL on " + dataDirectory, e);
    }
  }

  int port() {
    return port;
  }

  /** Where the nodes connect: the proxy. */
  int proxyPort() {
    return proxy.port();
  }

  Connection connection() throws SQLException {
    return server.getPostgresDatabase().getConnection();
  }

  void freezeProxy() {
    proxy.freeze();
  }

  void thawProxy() {
    proxy.thaw();
  }

  /** SIGSTOP to the postmaster first (so it forks nothing more), then to each of its children. */
  synchronized void freezeProcesses() {
    long postmaster = postmasterPid();
    signal("STOP", List.of(postmaster));
    List<Long> children = childrenOf(postmaster);
    signal("STOP", children);
    stopped.add(postmaster);
    stopped.addAll(children);
  }

  /**
   * SIGCONT to the children first, the postmaster last: a child that had ended before the freeze
   * stays a zombie until the postmaster reaps it, so none of the signals is sent to a pid gone.
   */
  synchronized void thawProcesses() {
    List<Long> childrenFirst = new ArrayList<>(stopped.subList(1, stopped.size()));
    childrenFirst.add(stopped.get(0));
    signal("CONT", childrenFirst);
    stopped.clear();
  }

  /** A fast shutdown ({@code pg_ctl stop -m fast}): sessions are ended, the data stays. */
  synchronized void stop() {
    if (!running) {
      return;
    }
    running = false;
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts the server again on the same data directory and port; returns when it accepts connections. */
  synchronized void start() {
    server = startServer();
    running = true;
  }

  private long postmasterPid() {
    try {
      return Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).trim());
    } catch (IOException e) {
      throw new UncheckedIOException("no postmaster.pid in " + dataDirectory, e);
    }
  }

  private static List<Long> childrenOf(long pid) {
    return ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid)).children()
        .map(ProcessHandle::pid).toList();
  }

  private static void signal(String signal, List<Long> pids) {
    if (pids.isEmpty()) {
      return;
    }
    List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
    pids.forEach(pid -> command.add(Long.toString(pid)));
    try {
      int exit = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
      if (exit != 0) {
        throw new IllegalStateException(String.join(" ", command) + " exited with " + exit);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (!stopped.isEmpty()) {
      thawProcesses();
    }
    proxy.close();
    stop();
  }
}
