package io.gpurental.agent;

import io.gpurental.agent.facts.BmcPower;
import io.gpurental.agent.facts.DiskHealth;
import io.gpurental.agent.facts.HostFacts;
import io.gpurental.agent.facts.HostTelemetry;
import io.gpurental.agent.facts.NvidiaSmi;
import io.gpurental.agent.facts.Telemetry;
import io.gpurental.agent.facts.TelemetrySource;
import io.gpurental.agent.protocol.GatewayClient;
import io.gpurental.agent.protocol.GatewayException;
import io.gpurental.agent.protocol.InstanceReport;
import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.container.ContainerRuntime;
import io.gpurental.agent.runtime.InstanceRuntime;
import io.gpurental.agent.runtime.ProcessRuntime;
import io.gpurental.agent.runtime.SimulatedRuntime;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent: enrols if it must, then runs three loops on its event loop — heartbeats at the
 * gateway's interval, the desired-state long poll, and the reconcile timer. A 401 on the host
 * credential ends all three.
 */
final class AgentVerticle extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(AgentVerticle.class);
  static final String VERSION = versionOfJar();

  private final AgentOptions options;
  private final Promise<String> terminated = Promise.promise();
  private StateDir state;
  private NvidiaSmi nvidiaSmi;
  private TelemetrySource telemetry;
  private Long lastRttMs;
  private GatewayClient gateway;
  private Reconciler reconciler;
  private ContainerRuntime containers;
  private ContainerSupport containerSupport;
  private String credential;
  private Backoff heartbeatBackoff;
  private Backoff pollBackoff;
  private Long lastVersion;
  private int heartbeatSeconds = 10;
  private long heartbeatTimer = -1;
  private long pollTimer = -1;
  private long reconcileTimer = -1;
  private long rareTimer = -1;
  private boolean stopped;

  AgentVerticle(AgentOptions options) {
    this.options = options;
  }

  /** Completes with the reason when the agent stopped on its own (its credential was refused). */
  Future<String> terminated() {
    return terminated.future();
  }

  io.vertx.core.Context agentContext() {
    return context;
  }

  Reconciler reconciler() {
    return reconciler;
  }

  @Override
  public Future<?> start() {
    state = new StateDir(options.stateDir());
    nvidiaSmi = new NvidiaSmi(options.nvidiaSmi(), Commands.system());
    telemetry = options.simulatedHost() != null ? options.simulatedHost() : new HostTelemetry(options.stateDir(),
        nvidiaSmi, new BmcPower(options.ipmitool(), Commands.system()),
        new DiskHealth(options.smartctl(), Commands.system()), options.baseLoadWatts());
    gateway = new GatewayClient(vertx, options.gateway(), VERSION);
    heartbeatBackoff = backoff();
    pollBackoff = backoff();
    InstanceRuntime runtime = runtime();
    reconciler = new Reconciler(runtime, this::report);
    containerSupport = new ContainerSupport(vertx, options.runtime(), containers, options.nvidiaCtk());
    if (containers != null) {
      containers.progress((id, report) -> report(id, report)
          .onFailure(e -> LOG.debug("report {} {} not taken: {}", id, report.state(), e.getMessage())));
    }
    return vertx.executeBlocking(() -> {
      state.prepare();
      return state.read();
    }).compose(enrolled -> (containers == null ? Future.succeededFuture()
            : containers.preflight(options.allowDockerWithoutUserns())).map(enrolled))
        .compose(enrolled -> enrolled != null ? Future.succeededFuture(enrolled) : enroll())
        .compose(enrolled -> {
          credential = enrolled.credential();
          LOG.info("agent {} for host {} ({} runtime) talking to {}", VERSION, enrolled.hostId(),
              options.runtime().name().toLowerCase(), options.gateway());
          return reconciler.check();
        })
        .onSuccess(v -> {
          refreshRarely();
          rareTimer = vertx.setPeriodic(options.diskHealthInterval().toMillis(), id -> refreshRarely());
          heartbeat();
          poll();
          reconcileTimer = vertx.setPeriodic(options.reconcileInterval().toMillis(), id -> reconciler.check()
              .onFailure(e -> LOG.warn("could not list the runtime's instances: {}", e.getMessage())));
        });
  }

  @Override
  public Future<?> stop() {
    halt();
    gateway.close();
    return Future.succeededFuture();
  }

  private InstanceRuntime runtime() {
    return switch (options.runtime()) {
      case PROCESS -> new ProcessRuntime(vertx, options.stateDir(), requireAddress(), options.sshPorts(),
          options.sshd(), Commands.system());
      case CONTAINER -> containers = new ContainerRuntime(vertx, new ContainerRuntime.Settings(
          options.engineSocket(), options.stateDir(), requireAddress(), options.sshPorts(), options.dropbear(),
          options.nvidiaSmi(), options.containerScope(), options.maxPullBytes()), Commands.system());
      case SIMULATED -> new SimulatedRuntime(vertx, options.simulatedRunningDelay(),
          options.publicAddress() == null ? "127.0.0.1" : options.publicAddress(), options.sshPorts(),
          options.simulatedHost());
    };
  }

  private String requireAddress() {
    if (options.publicAddress() == null || options.publicAddress().isBlank()) {
      throw new IllegalArgumentException("the " + options.runtime().name().toLowerCase()
          + " runtime needs --public-address (the address renters connect to)");
    }
    return options.publicAddress();
  }

  /** Retries until the gateway answers; a refused token ends the start. */
  private Future<StateDir.Enrolled> enroll() {
    String token = options.enrollmentToken();
    if (token == null || token.isBlank()) {
      return Future.failedFuture(new IllegalStateException("no credential in " + options.stateDir()
          + " and no --enrollment-token: enrol this host with the token from the operator"));
    }
    return vertx.executeBlocking(() -> HostFacts.collect(options.stateDir(), nvidiaSmi))
        .compose(facts -> containerSupport.facts().compose(runtimeFacts ->
            enrollWith(token, facts, runtimeFacts, backoff())));
  }

  private Future<StateDir.Enrolled> enrollWith(String token, HostFacts facts,
      GatewayClient.RuntimeFacts runtimeFacts, Backoff backoff) {
    return enrollRetrying(token, facts, runtimeFacts, backoff).compose(answer -> {
      StateDir.Enrolled enrolled = new StateDir.Enrolled(answer.hostId(), answer.credential());
      heartbeatSeconds = answer.heartbeatIntervalSeconds();
      return vertx.executeBlocking(() -> {
        state.save(enrolled);
        LOG.info("enrolled as host {}; credential saved in {}", answer.hostId(), options.stateDir());
        return enrolled;
      });
    });
  }

  private Future<GatewayClient.Enrolment> enrollRetrying(String token, HostFacts facts,
      GatewayClient.RuntimeFacts runtimeFacts, Backoff backoff) {
    return gateway.enroll(token, facts, runtimeFacts).recover(e -> {
      if (GatewayException.isUnauthorized(e)) {
        return Future.failedFuture(new IllegalStateException("the gateway refused the enrolment token"
            + " (unknown, already used or expired): ask the operator for a new one"));
      }
      long delay = backoff.next();
      LOG.warn("enrolment failed ({}), retrying in {} ms", e.getMessage(), delay);
      return vertx.timer(delay).compose(v -> enrollRetrying(token, facts, runtimeFacts, backoff));
    });
  }

  private void heartbeat() {
    if (stopped) {
      return;
    }
    if (options.simulatedHost() != null && options.simulatedHost().heartbeatsStopped()) {
      heartbeatTimer = schedule(heartbeatSeconds * 1000L, this::heartbeat);
      return;
    }
    Long rtt = lastRttMs;
    vertx.executeBlocking(() -> new Collected(telemetry.collect().withRttMs(rtt), containerSupport.heartbeatState()), false)
        .compose(collected -> sendTimed(collected)
            .onSuccess(answer -> containerSupport.delivered(collected.containers())))
        .onComplete(ar -> {
          if (ar.succeeded()) {
            heartbeatBackoff.reset();
            heartbeatSeconds = Math.max(1, ar.result().heartbeatIntervalSeconds());
            if (lastVersion != null && ar.result().desiredVersion() > lastVersion) {
              wakePoll();
            }
            heartbeatTimer = schedule(heartbeatSeconds * 1000L, this::heartbeat);
          } else if (!refused(ar.cause())) {
            lastRttMs = null;
            long delay = heartbeatBackoff.next();
            LOG.warn("heartbeat failed ({}), retrying in {} ms", ar.cause().getMessage(), delay);
            heartbeatTimer = schedule(delay, this::heartbeat);
          }
        });
  }

  /** Sends one heartbeat and keeps its HTTP round trip for the next one's {@code rtt_ms}. */
  /** What one heartbeat carries. */
  private record Collected(Telemetry telemetry, GatewayClient.ContainerState containers) {
  }

  private Future<GatewayClient.HeartbeatAnswer> sendTimed(Collected collected) {
    long began = System.nanoTime();
    return gateway.heartbeat(credential, collected.telemetry(), collected.containers())
        .onSuccess(answer -> lastRttMs = Math.max(0, (System.nanoTime() - began) / 1_000_000));
  }

  /** SMART and the like: slow, so never on a heartbeat's path; the heartbeat sends the last answer. */
  private void refreshRarely() {
    vertx.executeBlocking(() -> {
      telemetry.refreshRarely();
      return null;
    }, false).onFailure(e -> LOG.warn("a slow health check failed: {}", e.getMessage()));
  }

  private void poll() {
    if (stopped) {
      return;
    }
    pollTimer = -1;
    gateway.desiredState(credential, lastVersion, options.desiredStateWaitSeconds()).onComplete(ar -> {
      if (ar.succeeded()) {
        pollBackoff.reset();
        lastVersion = ar.result().version();
        reconciler.desired(ar.result().instances());
        containerSupport.maintain(ar.result());
        poll();
      } else if (!refused(ar.cause())) {
        long delay = pollBackoff.next();
        LOG.warn("desired-state fetch failed ({}), retrying in {} ms", ar.cause().getMessage(), delay);
        pollTimer = schedule(delay, this::poll);
      }
    });
  }

  /** A heartbeat said there is news while the poll waits out a backoff: fetch now. */
  private void wakePoll() {
    if (pollTimer != -1 && vertx.cancelTimer(pollTimer)) {
      poll();
    }
  }

  private Future<Void> report(String instanceId, InstanceReport report) {
    if (stopped) {
      return Future.failedFuture("agent stopped");
    }
    return gateway.report(credential, instanceId, report).onFailure(this::refused);
  }

  /** True (and the agent stops) when the gateway no longer accepts this host's credential. */
  private boolean refused(Throwable cause) {
    if (!GatewayException.isUnauthorized(cause) || stopped) {
      return stopped;
    }
    String reason = "the gateway refused this host's credential (401: revoked or rotated); the agent stops."
        + " Instances are left as they are. Re-enrol with a new token from the operator.";
    LOG.error(reason);
    halt();
    terminated.tryComplete(reason);
    return true;
  }

  private void halt() {
    stopped = true;
    vertx.cancelTimer(heartbeatTimer);
    vertx.cancelTimer(pollTimer);
    vertx.cancelTimer(reconcileTimer);
    vertx.cancelTimer(rareTimer);
  }

  private long schedule(long delayMillis, Runnable action) {
    return vertx.setTimer(Math.max(1, delayMillis), id -> action.run());
  }

  private Backoff backoff() {
    return new Backoff(Duration.ofSeconds(1), options.maxBackoff());
  }

  private static String versionOfJar() {
    String version = AgentVerticle.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
