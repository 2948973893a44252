package io.gpurental.gateway.reliability;

import io.gpurental.gateway.testing.FakeAgent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many simulated host agents, each behaving as docs/agent-protocol.md says an agent does: a
 * heartbeat at the interval the gateway gives, the desired-state long poll (answered at once on a
 * change, else after {@link #WAIT_SECONDS}), a reconcile pass after each answer that reports the
 * desired instance running (again on every pass, as the real agent re-sends it), and on a failed
 * call a retry after a backoff of 1 s doubling to 30 s (each delay drawn between half the step and
 * the step), to the next node when the connection failed. Everything is asynchronous (one HTTP client, a small scheduler): 200 agents cost a few
 * threads, not 200, and no agent polls in a loop.
 */
final class AgentSwarm implements AutoCloseable {
  private static final int WAIT_SECONDS = 25;
  private static final long FIRST_BACKOFF_MS = 1_000;
  private static final long LONGEST_BACKOFF_MS = 30_000;
  // HTTP/1.1 like the real agent (Vert.x web client); one connection per long poll
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  private final List<GatewayProcess> nodes;
  private final List<Agent> agents = new ArrayList<>();
  private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(2);
  private volatile boolean stopped;
  /** Agents may report their instance running only once this is set (per agent: see {@link Agent#reportsEarly}). */
  private volatile boolean everyoneReports;
  private volatile long faultNanos;
  private volatile GatewayProcess faulty;
  /** Calls whose connection failed (refused or cut: the killed node's). */
  final AtomicInteger cutOrRefused = new AtomicInteger();
  /** Calls answered 503 (load shed: the pool's wait queue was full), retried after the backoff. */
  final AtomicInteger shed = new AtomicInteger();
  /** Any other answer than the protocol's success or a 503: the test fails on one. */
  final java.util.Queue<String> unexpected = new java.util.concurrent.ConcurrentLinkedQueue<>();

  AgentSwarm(List<GatewayProcess> nodes) {
    this.nodes = List.copyOf(nodes);
  }

  /** One enrolled host's agent, talking to {@code nodes.get(node)} first. */
  Agent add(String hostId, String credential, int node, boolean reportsEarly, Duration heartbeatEvery) {
    synchronized (agents) {
      Agent agent = new Agent(agents.size(), hostId, credential, node, reportsEarly, heartbeatEvery);
      agents.add(agent);
      return agent;
    }
  }

  List<Agent> agents() {
    return agents;
  }

  /** Starts every agent's heartbeats and long poll. */
  void start() {
    agents.forEach(agent -> {
      timers.scheduleAtFixedRate(() -> heartbeat(agent), agent.heartbeatEvery.toMillis() * agent.index / agents.size(),
          agent.heartbeatEvery.toMillis(), TimeUnit.MILLISECONDS);
      poll(agent, FIRST_BACKOFF_MS);
    });
  }

  /** From now on every agent reports its instance running. */
  void everyoneReports() {
    everyoneReports = true;
  }

  /** Notes that {@code node} was just made to fail: failover times count from here. */
  void faultOn(GatewayProcess node) {
    faulty = node;
    faultNanos = System.nanoTime();
  }

  private void heartbeat(Agent agent) {
    heartbeat(agent, FIRST_BACKOFF_MS);
  }

  /** A retry's delay as the host agent draws it ({@code Backoff}): between half the step and the whole step. */
  private static long drawn(long stepMs) {
    return stepMs / 2 + java.util.concurrent.ThreadLocalRandom.current().nextLong(stepMs - stepMs / 2 + 1);
  }

  /** One heartbeat; a failed one is retried after {@code backoffMs} (doubling), as the agent's backoff does. */
  private void heartbeat(Agent agent, long backoffMs) {
    if (stopped) {
      return;
    }
    GatewayProcess node = agent.node();
    JsonObject body = new JsonObject().put("agent_version", "0.1.0").put("sent_at", java.time.Instant.now().toString())
        .put("telemetry", new JsonObject().put("disk_free_gb", 3100.5).put("load_1m", 0.42));
    HTTP.sendAsync(request(agent, node, "/api/v1/agent/heartbeat", Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(), HttpResponse.BodyHandlers.ofString())
        .whenComplete((response, failure) -> {
          if (failure == null && response.statusCode() == 200) {
            agent.heartbeats.incrementAndGet();
            answered(agent, node);
            return;
          }
          count(failure == null ? null : unwrap(failure), response);
          if (failure != null) {
            agent.moveOn(node);
          }
          if (backoffMs < agent.heartbeatEvery.toMillis()) {
            timers.schedule(() -> heartbeat(agent, backoffMs * 2), drawn(backoffMs), TimeUnit.MILLISECONDS);
          }
        });
  }

  private void poll(Agent agent, long backoffMs) {
    if (stopped) {
      return;
    }
    GatewayProcess node = agent.node();
    String query = agent.version < 0 ? "?wait_seconds=0" : "?after_version=" + agent.version + "&wait_seconds=" + WAIT_SECONDS;
    HTTP.sendAsync(request(agent, node, "/api/v1/agent/desired-state" + query, Duration.ofSeconds(WAIT_SECONDS + 30))
            .GET().build(), HttpResponse.BodyHandlers.ofString())
        .thenCompose(response -> {
          if (response.statusCode() != 200) {
            throw new Refused(response);
          }
          return reconcile(agent, node, new JsonObject(response.body()));
        })
        .whenComplete((v, failure) -> {
          if (failure == null) {
            poll(agent, FIRST_BACKOFF_MS);
            return;
          }
          if (unwrap(failure) instanceof Refused refused) {
            count(null, refused.response);
            // a report not taken is sent again on the next reconcile pass: fetch at once after the backoff
            agent.version = -1;
          } else {
            count(unwrap(failure), null);
            agent.moveOn(node);
          }
          timers.schedule(() -> poll(agent, Math.min(backoffMs * 2, LONGEST_BACKOFF_MS)), drawn(backoffMs),
              TimeUnit.MILLISECONDS);
        });
  }

  /** A call answered with another status than the protocol's success. */
  private static final class Refused extends RuntimeException {
    final transient HttpResponse<String> response;

    Refused(HttpResponse<String> response) {
      super(response.request().method() + " " + response.uri().getPath() + " " + response.statusCode() + ": "
          + response.body());
      this.response = response;
    }
  }

  private void count(Throwable failure, HttpResponse<String> response) {
    if (failure instanceof java.io.IOException) {
      cutOrRefused.incrementAndGet();
    } else if (failure != null) {
      unexpected.add(failure.toString());
    } else if (response.statusCode() == 503) {
      shed.incrementAndGet();
    } else {
      unexpected.add(response.request().method() + " " + response.uri().getPath() + " " + response.statusCode() + ": "
          + response.body());
    }
  }

  /** The first call another node than the faulty one answered after the fault is the agent's failover. */
  private void answered(Agent agent, GatewayProcess node) {
    if (node != faulty && faultNanos != 0 && agent.failoverMillis < 0) {
      agent.failoverMillis = (System.nanoTime() - faultNanos) / 1_000_000;
    }
  }

  /** What an agent does with a desired state: note what it was asked for, and report its instance running. */
  private CompletableFuture<Void> reconcile(Agent agent, GatewayProcess node, JsonObject state) {
    agent.version = state.getLong("version");
    JsonArray instances = state.getJsonArray("instances");
    agent.mostInstances.accumulateAndGet(instances.size(), Math::max);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < instances.size(); i++) {
      ids.add(instances.getJsonObject(i).getString("id"));
    }
    agent.seen.addAll(ids);
    String expected = agent.expected;
    if (expected != null && agent.seen.contains(expected) && !ids.contains(expected)) {
      agent.vanished = true;
    }
    answered(agent, node);
    if (instances.isEmpty() || !(agent.reportsEarly || everyoneReports)) {
      return CompletableFuture.completedFuture(null);
    }
    JsonObject instance = instances.getJsonObject(0);
    JsonObject running = FakeAgent.running(instance.getString("user"), 22000 + agent.index);
    return HTTP.sendAsync(request(agent, node, "/api/v1/agent/instances/" + instance.getString("id"),
            Duration.ofSeconds(30)).PUT(HttpRequest.BodyPublishers.ofString(running.encode())).build(),
        HttpResponse.BodyHandlers.ofString()).thenAccept(response -> {
          if (response.statusCode() != 204) {
            throw new Refused(response);
          }
          agent.reportedThrough.add(node.name());
        });
  }

  private static HttpRequest.Builder request(Agent agent, GatewayProcess node, String path, Duration timeout) {
    return HttpRequest.newBuilder(URI.create(node.url(path))).timeout(timeout)
        .header("Authorization", "Bearer " + agent.credential).header("Content-Type", "application/json");
  }

  private static Throwable unwrap(Throwable failure) {
    return failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
  }

  @Override
  public void close() {
    stopped = true;
    timers.shutdownNow();
  }

  /** One simulated agent and what it has seen. */
  final class Agent {
    final int index;
    final String hostId;
    final String credential;
    final boolean reportsEarly;
    final Duration heartbeatEvery;
    private final AtomicInteger node;
    /** The instance (reservation id) this host should run once it is paid for. */
    volatile String expected;
    volatile long version = -1;
    final Set<String> seen = ConcurrentHashMap.newKeySet();
    final AtomicInteger mostInstances = new AtomicInteger();
    /** The expected instance was listed, then missing from a later answer. */
    volatile boolean vanished;
    /** Milliseconds from the fault to this agent's first desired state (with its instance) from another node. */
    volatile long failoverMillis = -1;
    final Set<String> reportedThrough = ConcurrentHashMap.newKeySet();
    final AtomicInteger heartbeats = new AtomicInteger();
    /** The offer its host was activated with. */
    volatile String offerId;

    private Agent(int index, String hostId, String credential, int node, boolean reportsEarly, Duration heartbeatEvery) {
      this.index = index;
      this.hostId = hostId;
      this.credential = credential;
      this.node = new AtomicInteger(node);
      this.reportsEarly = reportsEarly;
      this.heartbeatEvery = heartbeatEvery;
    }

    GatewayProcess node() {
      return nodes.get(node.get());
    }

    /** A connection to {@code failed} failed: the next call goes to the next node (once per failure). */
    void moveOn(GatewayProcess failed) {
      int at = nodes.indexOf(failed);
      if (node.compareAndSet(at, (at + 1) % nodes.size())) {
        // on another node the agent first fetches the whole desired state at once, then long-polls
        version = -1;
      }
    }
  }
}
