package io.gpurental.agent;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.InstanceReport;
import io.gpurental.agent.protocol.SshEndpoint;
import io.gpurental.agent.runtime.InstanceFailure;
import io.gpurental.agent.runtime.InstanceRuntime;
import io.gpurental.agent.runtime.InstanceRuntime.ActualInstance;
import io.vertx.core.Future;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the runtime hold exactly the desired instances, like a kubelet: missing ones are started,
 * extra ones stopped and removed, running ones re-reported. At most one runtime operation per
 * instance is in flight; each one ends with another pass. Runs on the agent's event loop only.
 */
final class Reconciler {
  private static final Logger LOG = LoggerFactory.getLogger(Reconciler.class);

  /** Reports one instance's state to the gateway; the future fails when the gateway did not take it. */
  interface Reporter {
    Future<Void> report(String instanceId, InstanceReport report);
  }

  private enum Phase { STARTING, RUNNING, FAILED, STOPPING, STOPPED }

  private static final class Tracked {
    Phase phase;
    SshEndpoint ssh;
    String reason;

    Tracked(Phase phase) {
      this.phase = phase;
    }
  }

  private final InstanceRuntime runtime;
  private final Reporter reporter;
  private final Map<String, Tracked> tracked = new LinkedHashMap<>();
  private Map<String, DesiredInstance> desired;
  private long changes;

  Reconciler(InstanceRuntime runtime, Reporter reporter) {
    this.runtime = runtime;
    this.reporter = reporter;
  }

  /** A fresh desired state from the gateway. */
  void desired(List<DesiredInstance> instances) {
    Map<String, DesiredInstance> byId = new LinkedHashMap<>();
    instances.forEach(i -> byId.put(i.id(), i));
    desired = byId;
    pass();
  }

  /**
   * Compares with what the runtime really holds: adopts healthy instances it does not know (an
   * agent restart), removes broken leftovers, notices instances that died. Then a pass.
   */
  Future<Void> check() {
    long seen = changes;
    return runtime.list().map(actual -> {
      // a start or stop that ended meanwhile makes this listing stale; the next check sees the truth
      if (seen == changes && tracked.values().stream().noneMatch(t -> t.phase == Phase.STARTING || t.phase == Phase.STOPPING)) {
        apply(actual);
        pass();
      }
      return null;
    });
  }

  /**
   * Stops one instance and reports it failed (the sandbox's way to make a simulated host fail one);
   * false when it is not running here.
   */
  boolean fail(String instanceId, String reason) {
    Tracked t = tracked.get(instanceId);
    if (t == null || t.phase != Phase.RUNNING) {
      return false;
    }
    LOG.warn("instance {} failed: {}", instanceId, reason);
    cleanUpAsFailed(instanceId, t, reason);
    return true;
  }

  private void apply(List<ActualInstance> actual) {
    Map<String, ActualInstance> byId = new HashMap<>();
    actual.forEach(a -> byId.put(a.id(), a));
    for (ActualInstance a : actual) {
      if (tracked.containsKey(a.id())) {
        continue;
      }
      if (a.healthy()) {
        LOG.info("adopted running instance {} (ssh port {})", a.id(), a.ssh().port());
        Tracked t = new Tracked(Phase.RUNNING);
        t.ssh = a.ssh();
        tracked.put(a.id(), t);
      } else {
        LOG.info("removing broken leftover of instance {}", a.id());
        Tracked t = new Tracked(Phase.STOPPING);
        tracked.put(a.id(), t);
        runtime.stop(a.id()).onComplete(ar -> {
          changes++;
          tracked.remove(a.id());
          pass();
        });
      }
    }
    tracked.forEach((id, t) -> {
      ActualInstance a = byId.get(id);
      if (t.phase == Phase.RUNNING && (a == null || !a.healthy())) {
        String reason = a == null ? InstanceFailure.RUNTIME_ERROR : a.failureReason();
        LOG.warn("instance {} is no longer running ({})", id, reason);
        cleanUpAsFailed(id, t, reason);
      }
    });
  }

  private void pass() {
    if (desired == null) {
      return; // until the first desired state arrives, nothing is known to be extra
    }
    for (DesiredInstance d : desired.values()) {
      Tracked t = tracked.get(d.id());
      if (t == null || t.phase == Phase.STOPPED) {
        start(d);
      }
    }
    for (Map.Entry<String, Tracked> e : List.copyOf(tracked.entrySet())) {
      String id = e.getKey();
      Tracked t = e.getValue();
      boolean wanted = desired.containsKey(id);
      switch (t.phase) {
        case RUNNING -> {
          if (wanted) {
            report(id, InstanceReport.running(t.ssh, runtime.ports(id)));
          } else {
            stop(id, t);
          }
        }
        case FAILED -> {
          if (wanted) {
            report(id, InstanceReport.failed(t.reason));
          } else {
            tracked.remove(id);
          }
        }
        case STOPPED -> reportStopped(id, t);
        case STARTING, STOPPING -> {
          // the operation in flight ends with a pass
        }
      }
    }
  }

  private void start(DesiredInstance d) {
    Tracked t = new Tracked(Phase.STARTING);
    tracked.put(d.id(), t);
    LOG.info("starting instance {} for user {} on GPUs {}", d.id(), d.user(), d.gpuUuids());
    report(d.id(), InstanceReport.preparing());
    long began = System.nanoTime();
    runtime.start(d).onComplete(ar -> {
      changes++;
      if (ar.succeeded()) {
        LOG.info("instance {} running on port {} after {} ms", d.id(), ar.result().port(),
            (System.nanoTime() - began) / 1_000_000);
        t.phase = Phase.RUNNING;
        t.ssh = ar.result();
        pass();
      } else {
        LOG.error("instance {} failed to start: {}", d.id(), ar.cause().getMessage());
        cleanUpAsFailed(d.id(), t, InstanceFailure.reasonOf(ar.cause()));
      }
    });
  }

  /** A failed instance keeps its id (so it is not started again) but none of its resources. */
  private void cleanUpAsFailed(String id, Tracked t, String reason) {
    t.phase = Phase.STARTING;
    runtime.stop(id).onComplete(ar -> {
      changes++;
      if (ar.failed()) {
        LOG.error("could not clean up failed instance {}: {}", id, ar.cause().getMessage());
      }
      t.phase = Phase.FAILED;
      t.reason = reason;
      pass();
    });
  }

  private void stop(String id, Tracked t) {
    t.phase = Phase.STOPPING;
    LOG.info("stopping instance {}", id);
    runtime.stop(id).onComplete(ar -> {
      changes++;
      if (ar.succeeded()) {
        t.phase = Phase.STOPPED;
      } else {
        LOG.error("could not stop instance {} (retried on the next check): {}", id, ar.cause().getMessage());
        t.phase = Phase.RUNNING;
      }
      pass();
    });
  }

  /** Kept until the gateway took it (a 404 means it has forgotten the instance: also fine). */
  private void reportStopped(String id, Tracked t) {
    t.phase = Phase.STOPPING;
    reporter.report(id, InstanceReport.stopped()).onComplete(ar -> {
      if (ar.succeeded() || io.gpurental.agent.protocol.GatewayException.isNotFound(ar.cause())) {
        tracked.remove(id);
      } else {
        t.phase = Phase.STOPPED;
      }
    });
  }

  private void report(String id, InstanceReport report) {
    reporter.report(id, report).onFailure(e -> LOG.debug("report {} {} not taken: {}", id, report.state(), e.getMessage()));
  }
}
