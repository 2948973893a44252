package io.gpurental.gateway.reliability;

import io.gpurental.gateway.testing.Eventually;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One gateway node in a JVM of its own (the test classpath and {@code io.gpurental.gateway.Main}, as
 * {@code java -jar} starts it), configured only through {@code GATEWAY_*} variables, its output in a
 * log file. It can be killed (SIGKILL), stopped (SIGTERM, the shutdown hook drains), paused
 * (SIGSTOP) and resumed (SIGCONT).
 */
public final class GatewayProcess implements AutoCloseable {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  /** What surefire gives the test JVM (gateway/pom.xml), which Hazelcast asks for on Java 9+. */
  private static final List<String> JVM_OPTIONS = List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
      "-Dhazelcast.phone.home.enabled=false", "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens", "java.management/sun.management=ALL-UNNAMED",
      "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED");

  private final String name;
  private final Map<String, String> settings;
  private final Path log;
  private final Process process;
  private final long launchedNanos = System.nanoTime();
  /** Milliseconds from launch until /health/ready first answered 200 with all members; -1 before. */
  private volatile long readyAfterMillis = -1;

  private GatewayProcess(String name, Map<String, String> settings, Path log, Process process) {
    this.name = name;
    this.settings = settings;
    this.log = log;
    this.process = process;
  }

  /** Launches the node; it is not ready yet (see {@link #awaitReady}). */
  public static GatewayProcess launch(String name, Map<String, String> settings, Path logDirectory) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_OPTIONS);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("io.gpurental.gateway.Main");
    Path log = logDirectory.resolve(name + ".log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().keySet().removeIf(key -> key.startsWith("GATEWAY_"));
    builder.environment().putAll(settings);
    try {
      Process process = builder.start();
      // a test JVM that dies must not leave nodes behind holding ports and the database
      Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
      return new GatewayProcess(name, settings, log, process);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot launch gateway node " + name, e);
    }
  }

  /** A new process of this node (same name, ports, settings and log file), after this one ended. */
  public GatewayProcess relaunch() {
    return relaunch(Map.of());
  }

  /** As {@link #relaunch()}, with {@code changed} settings replacing or adding to this node's. */
  public GatewayProcess relaunch(Map<String, String> changed) {
    if (process.isAlive()) {
      throw new IllegalStateException(name + " is still running");
    }
    Map<String, String> next = new java.util.HashMap<>(settings);
    next.putAll(changed);
    return launch(name, next, log.getParent());
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public int httpPort() {
    return Integer.parseInt(settings.get("GATEWAY_HTTP_PORT"));
  }

  /** A URL on the public listener. */
  public String url(String path) {
    return "http://127.0.0.1:" + httpPort() + path;
  }

  /** A URL on the management listener (metrics, health). */
  public String managementUrl(String path) {
    return "http://127.0.0.1:" + settings.get("GATEWAY_MANAGEMENT_PORT") + path;
  }

  /** Waits until /health/ready answers 200 with {@code members} cluster members, or fails with the log's tail. */
  public void awaitReady(int members, Duration limit) {
    try {
      Eventually.eventually(name + " ready with " + members + " cluster members", limit, () -> {
        if (!process.isAlive()) {
          throw new AssertionError(name + " exited with " + process.exitValue() + ":\n" + logTail());
        }
        return clusterMembers();
      }, seen -> seen == members);
      if (readyAfterMillis < 0) {
        readyAfterMillis = (System.nanoTime() - launchedNanos) / 1_000_000;
      }
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + name + " log:\n" + logTail(), e);
    }
  }

  /** Milliseconds from launch until {@link #awaitReady} first saw the node ready (-1 before). */
  public long readyAfterMillis() {
    return readyAfterMillis;
  }

  /** The cluster members /health/ready reports, -1 while the node is not ready or not answering. */
  public int clusterMembers() {
    try {
      HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(URI.create(managementUrl("/health/ready")))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
      if (ready.statusCode() != 200) {
        return -1;
      }
      JsonArray checks = new JsonObject(ready.body()).getJsonArray("checks", new JsonArray());
      for (int i = 0; i < checks.size(); i++) {
        JsonObject check = checks.getJsonObject(i);
        if ("cluster".equals(check.getString("id"))) {
          return check.getJsonObject("data", new JsonObject()).getInteger("members", -1);
        }
      }
      return -1;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The status /health/ready answers, or -1 when nothing answers. */
  public int readiness() {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create(managementUrl("/health/ready")))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** kill -9: no drain, no goodbye to the cluster, open connections cut. */
  public void kill() {
    process.destroyForcibly();
    awaitExit(Duration.ofSeconds(30));
  }

  /** SIGTERM: the node drains (readiness off, in-flight requests finish) and exits by itself. */
  public void terminate() {
    process.destroy();
  }

  /** Waits for the process to exit and returns its exit code; fails after {@code limit}. */
  public int awaitExit(Duration limit) {
    try {
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(name + " still running after " + limit.toSeconds() + " s");
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** SIGSTOP: the node is frozen as a paused VM is; its sockets stay open and silent. */
  public void pause() {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause}. */
  public void resume() {
    signal("CONT");
  }

  private void signal(String signal) {
    try {
      int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
      if (exit != 0) {
        throw new IllegalStateException("kill -" + signal + " " + process.pid() + " exited with " + exit);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Every line of the node's output so far (all its runs: a restart appends). */
  public List<String> logLines() {
    try {
      return Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + log, e);
    }
  }

  /** The last lines of the node's output, for failure messages. */
  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      awaitExit(Duration.ofSeconds(30));
    }
  }
}
