package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.Hashes;
import io.vertx.core.Future;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Instances on hosts run by host agents: starting one makes it part of its host's desired state
 * (and wakes the host's long poll), stopping takes it out; the agent's reports of {@code running}
 * and {@code failed} go to the reservation. Hosts no agent enrolled are left to {@code others}
 * ({@link NoHostAgents}: a log line; the sandbox's demo hosts have simulated agents of their own).
 */
public final class AgentFleet implements Fleet {
  private static final Logger LOG = LoggerFactory.getLogger(AgentFleet.class);
  private final InstanceRepository instances;
  private final DesiredStateWaits waits;
  private final Fleet others;
  /** Where to report what this node started; others go to {@link #reportTo}'s. */
  private final Map<String, InstanceEvents> started = new ConcurrentHashMap<>();
  private volatile InstanceEvents registered;

  AgentFleet(InstanceRepository instances, DesiredStateWaits waits, Fleet others) {
    this.instances = instances;
    this.waits = waits;
    this.others = others;
  }

  @Override
  public Future<Void> start(Launch launch, InstanceEvents events) {
    return instances.desire(launch, unixUser(launch.reservationId())).compose(host -> {
      if (host.isEmpty()) {
        return others.start(launch, events);
      }
      started.put(launch.reservationId(), events);
      waits.changed(host.get());
      return Future.succeededFuture();
    });
  }

  @Override
  public Future<Void> stop(String reservationId) {
    started.remove(reservationId);
    return instances.undesire(reservationId).compose(host -> {
      if (host.isEmpty()) {
        return others.stop(reservationId);
      }
      waits.changed(host.get());
      return Future.succeededFuture();
    });
  }

  @Override
  public void reportTo(InstanceEvents events) {
    registered = events;
    others.reportTo(events);
  }

  /**
   * Passes an agent's report on to the reservation. Repeated reports are passed on again (the
   * reservation ignores a move it has made), so a report whose effect was lost converges.
   */
  Future<Void> reported(String reservationId, InstanceRepository.Previous previous, InstanceRepository.Report report,
      Optional<SshAccess> ssh) {
    if (!previous.desired()) {
      return Future.succeededFuture();
    }
    InstanceEvents events = Optional.ofNullable(started.get(reservationId)).orElse(registered);
    if (events == null) {
      LOG.warn("Instance {} is {}, but nothing listens for instance reports", reservationId, report.state());
      return Future.succeededFuture();
    }
    return switch (report.state()) {
      case InstanceLifecycle.RUNNING -> events.running(reservationId, ssh.orElseThrow()).mapEmpty();
      case InstanceLifecycle.FAILED -> events.failed(reservationId, "host agent: " + report.reason()).mapEmpty();
      default -> Future.succeededFuture();
    };
  }

  /**
   * A GPU of the host changed health: the instances running on it are interrupted when it turned
   * faulty and resumed when it is healthy again after being faulty (a degraded GPU still serves).
   */
  Future<Void> gpuHealthChanged(String hostId, HealthRepository.GpuChange change) {
    boolean faulty = GpuHealth.FAULTY.equals(change.to());
    boolean recovered = GpuHealth.FAULTY.equals(change.from()) && GpuHealth.HEALTHY.equals(change.to());
    if (!faulty && !recovered) {
      return Future.succeededFuture();
    }
    return instances.runningOn(hostId, change.index()).compose(ids -> Future.all(ids.stream().map(id -> {
      InstanceEvents events = Optional.ofNullable(started.get(id)).orElse(registered);
      if (events == null) {
        LOG.warn("GPU {} of host {} is {}, but nothing listens for instance events", change.index(), hostId,
            change.to());
        return Future.succeededFuture();
      }
      return faulty ? events.interrupted(id, "gpu faulty: GPU " + change.index() + ", " + change.reason(),
          change.since()) : events.resumed(id, change.since());
    }).toList())).mapEmpty();
  }

  /** A Unix user name of its own per instance: lower case, at most 32 characters. */
  static String unixUser(String reservationId) {
    return "rsv_" + Hashes.sha256Hex(reservationId).substring(0, 16);
  }
}
