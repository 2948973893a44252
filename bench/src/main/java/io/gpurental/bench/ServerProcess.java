package io.gpurental.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A server under test in a JVM of its own (the gateway jar, or the baseline from this jar), its
 * output in a log file; started and stopped from the harness's main thread, never an event loop.
 */
final class ServerProcess implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
  private final String name;
  private final Process process;
  private final Path log;
  private final int port;

  private ServerProcess(String name, Process process, Path log, int port) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /** Starts {@code java <args>} with these extra environment variables and waits until {@code readyPath} answers 200. */
  static ServerProcess start(String name, List<String> javaArgs, Map<String, String> env, Path log, int port,
      String readyPath) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(javaArgs);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().putAll(env);
    try {
      ServerProcess server = new ServerProcess(name, builder.start(), log, port);
      // a harness stopped with Ctrl-C must not leave servers behind (Java does not end its children)
      Process child = server.process;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        if (child.isAlive()) {
          child.destroy();
        }
      }, "stop-" + name));
      server.awaitReady(readyPath);
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
  }

  URI uri() {
    return URI.create("http://" + Loopback.HOST + ":" + port);
  }

  Path log() {
    return log;
  }

  long pid() {
    return process.pid();
  }

  private void awaitReady(String path) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest ready = HttpRequest.newBuilder(uri().resolve(path)).timeout(Duration.ofSeconds(5)).build();
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see " + log);
      }
      try {
        if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + name, e);
      }
      pause();
    }
    close();
    throw new IllegalStateException(name + " was not ready within " + START_TIMEOUT + "; see " + log);
  }

  private static void pause() {
    try {
      Thread.sleep(250); // polling a starting process, bounded by START_TIMEOUT
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Lines of the log that contain {@code text} (e.g. Vert.x's blocked-thread warnings). */
  List<String> logLines(String text) {
    try {
      return Files.readAllLines(log).stream().filter(line -> line.contains(text)).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + log, e);
    }
  }

  /** SIGTERM (the gateway drains and stops its database), then SIGKILL if it does not exit. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
