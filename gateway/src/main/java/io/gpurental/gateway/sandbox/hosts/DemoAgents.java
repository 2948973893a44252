package io.gpurental.gateway.sandbox.hosts;

import io.gpurental.agent.AgentOptions;
import io.gpurental.agent.HostAgent;
import io.gpurental.agent.RuntimeKind;
import io.gpurental.agent.simulated.Faults;
import io.gpurental.agent.simulated.SimulatedHost;
import io.gpurental.gateway.fleet.DemoHosts;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.sandbox.FaultControlKey;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.Lock;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sandbox's demo fleet: one in-process host agent with the simulated runtime per demo host,
 * talking the real agent protocol to the gateway's public URL, so a demo reservation takes the
 * production path (desired state, long poll, the agent's reports).
 *
 * <p>Two agents on one host would both start its instances, so one node of the cluster runs them
 * all: the one holding the cluster-wide lock {@value #LOCK}. The others try again every
 * {@link #TAKE_OVER_EVERY}, and one takes over when the holder stops (or dies and the cluster
 * releases its lock). Whoever takes over gives each host a new credential, which revokes the old
 * one: agents left running elsewhere are refused (401) and stop, so even a lock that two nodes
 * believe they hold cannot make two agents run a host.
 *
 * <p>{@code POST /sandbox/hosts/_test/instances/{id}/fail} (with the installation's
 * {@link io.gpurental.gateway.sandbox.FaultControlKey} as bearer, like the other test controls) asks the agent running the instance, on whichever node, to
 * fail it: it reports {@code failed} and the gateway's normal path fails and credits the reservation.
 * {@code /sandbox/hosts/_test/hosts/{host_id}/faults} ({@link DemoFaultRoutes}) makes a demo host
 * misbehave: silent heartbeats, hot or broken GPUs, a full disk, failing or slow provisioning.
 * Each agent reports a {@link SimulatedHost}'s telemetry (its GPUs busy while instances run).
 */
public final class DemoAgents implements Feature {
  private static final Logger LOG = LoggerFactory.getLogger(DemoAgents.class);
  static final String LOCK = "sandbox.demo-agents";
  private static final String FAIL_ADDRESS = "sandbox.demo-agents.fail";
  private static final Duration TAKE_OVER_EVERY = Duration.ofSeconds(5);
  private static final String FAILURE_REASON = "runtime_error";

  private final Vertx vertx;
  private final DemoHosts demoHosts;
  private final String gatewayUrl;
  private final Duration readyAfter;
  private final String controlKey;
  private final Map<String, HostAgent> agents = new ConcurrentHashMap<>();
  private final Map<String, SimulatedHost> simulated = new ConcurrentHashMap<>();
  private volatile boolean stopped;
  private volatile long retryTimer = -1;
  private volatile Lock lock;
  private volatile Path stateDirs;
  private volatile MessageConsumer<String> failures;
  private volatile MessageConsumer<JsonObject> faults;

  public DemoAgents(Vertx vertx, DemoHosts demoHosts, String gatewayUrl, Duration readyAfter, String controlKey) {
    this.vertx = vertx;
    this.demoHosts = demoHosts;
    this.gatewayUrl = gatewayUrl;
    this.readyAfter = readyAfter;
    this.controlKey = controlKey;
  }

  /** Runs the agents now if no other node does (call once HTTP listens); else waits to take over. */
  public Future<Void> start() {
    return vertx.sharedData().getLockWithTimeout(LOCK, 10).compose(this::run, busy -> {
      if (!stopped) {
        retryTimer = vertx.setTimer(TAKE_OVER_EVERY.toMillis(), id -> start());
      }
      return Future.succeededFuture();
    });
  }

  /** Whether this node runs the demo fleet's agents. */
  public boolean running() {
    return !agents.isEmpty();
  }

  /** Stops the agents (their long polls end with their connections), deletes their state, frees the lock. */
  public Future<Void> stop() {
    stopped = true;
    vertx.cancelTimer(retryTimer);
    Future<Void> unregistered = Future.join(failures == null ? Future.succeededFuture() : failures.unregister(),
        faults == null ? Future.succeededFuture() : faults.unregister()).mapEmpty();
    return unregistered
        .eventually(() -> Future.join(agents.values().stream().map(HostAgent::stop).toList()))
        .eventually(() -> stateDirs == null ? Future.succeededFuture() : vertx.executeBlocking(() -> {
          deleteTree(stateDirs);
          return null;
        }))
        .onComplete(done -> {
          agents.clear();
          simulated.clear();
          if (lock != null) {
            lock.release();
          }
        })
        .mapEmpty();
  }

  private Future<Void> run(Lock held) {
    if (stopped) {
      held.release();
      return Future.succeededFuture();
    }
    lock = held;
    return vertx.executeBlocking(() -> Files.createTempDirectory("gpr-demo-agents-"))
        .compose(dir -> {
          stateDirs = dir;
          List<Future<HostAgent>> started = new ArrayList<>();
          DemoHosts.HOSTS.forEach(host -> started.add(startAgent(host)));
          return Future.all(started);
        })
        .compose(v -> {
          failures = vertx.eventBus().consumer(FAIL_ADDRESS, this::fail);
          faults = vertx.eventBus().consumer(DemoFaultRoutes.ADDRESS, this::faults);
          return Future.all(failures.completion(), faults.completion()).<Void>mapEmpty();
        })
        .onSuccess(ignored -> LOG.info("Running the demo fleet's {} simulated host agents against {}",
                agents.size(), gatewayUrl))
        .recover(e -> abandon(held).transform(done -> Future.<Void>failedFuture(e)));
  }

  /**
   * Undoes a start that failed half-way (a credential not stored in time on a busy machine): the
   * agents already running stop and the lock is released, so that trying again starts afresh.
   */
  private Future<Void> abandon(Lock held) {
    List<Future<Void>> stopping = agents.values().stream().map(HostAgent::stop).toList();
    return Future.join(stopping).<Void>mapEmpty().otherwiseEmpty().onComplete(done -> {
      agents.clear();
      simulated.clear();
      lock = null;
      held.release();
    });
  }

  private Future<HostAgent> startAgent(DemoHosts.Host host) {
    Path stateDir = stateDirs.resolve(host.id());
    SimulatedHost simulatedHost = DemoGpus.simulated(host);
    simulated.put(host.id(), simulatedHost);
    return demoHosts.issueCredential(host.id())
        .compose(credential -> vertx.executeBlocking(() -> {
          writeStateDir(stateDir, host.id(), credential);
          return null;
        }))
        .compose(v -> HostAgent.start(vertx, new AgentOptions(gatewayUrl, stateDir)
            .runtime(RuntimeKind.SIMULATED)
            .publicAddress(host.publicAddress())
            .simulatedRunningDelay(readyAfter)
            .simulatedHost(simulatedHost)
            .baseLoadWatts(DemoGpus.BASE_LOAD_W)))
        .onSuccess(agent -> agents.put(host.id(), agent));
  }

  @Override
  public void mount(Router router) {
    new DemoFaultRoutes(vertx, controlKey).mount(router);
    router.post("/sandbox/hosts/_test/instances/:id/fail").handler(ctx -> {
      if (!FaultControlKey.presented(ctx.request().getHeader("Authorization"), controlKey)) {
        ctx.response().setStatusCode(401).end();
        return;
      }
      vertx.eventBus().<JsonObject>request(FAIL_ADDRESS, ctx.pathParam("id"))
          .onSuccess(reply -> ctx.json(reply.body()))
          .onFailure(e -> {
            boolean noAgents = e instanceof ReplyException r && r.failureType() == ReplyFailure.NO_HANDLERS;
            ctx.response().setStatusCode(noAgents ? 503 : 404).end();
          });
    });
  }

  /** On the node running the agents: the one running the instance fails it. */
  private void fail(Message<String> message) {
    String instanceId = message.body();
    List<Future<Boolean>> asked = agents.values().stream().map(agent -> agent.fail(instanceId, FAILURE_REASON)).toList();
    Future.join(asked).onComplete(done -> {
      if (asked.stream().anyMatch(f -> f.succeeded() && f.result())) {
        message.reply(new JsonObject().put("failed", true).put("reason", FAILURE_REASON));
      } else {
        message.fail(404, "no demo agent runs instance " + instanceId);
      }
    });
  }

  /** On the node running the agents: shows, changes or resets one demo host's faults (already checked). */
  private void faults(Message<JsonObject> message) {
    String hostId = message.body().getString("host_id");
    SimulatedHost host = simulated.get(hostId);
    if (host == null || !agents.containsKey(hostId)) {
      message.fail(404, "no demo agent runs host " + hostId);
      return;
    }
    JsonObject body = message.body().getJsonObject("body");
    Faults now = switch (message.body().getString("action")) {
      case "reset" -> host.reset();
      case "set" -> host.update(f -> DemoFaults.apply(f, body));
      default -> host.faults();
    };
    if (!"get".equals(message.body().getString("action"))) {
      LOG.info("demo host {} faults now {}", hostId, now);
    }
    message.reply(DemoFaults.toJson(hostId, now));
  }

  /** What an enrolled agent keeps: its host id and credential (0600) in a 0700 directory. */
  private static void writeStateDir(Path dir, String hostId, String credential) throws IOException {
    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.writeString(dir.resolve("host_id"), hostId + "\n");
    Path file = Files.createFile(dir.resolve("credential"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, credential + "\n");
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
