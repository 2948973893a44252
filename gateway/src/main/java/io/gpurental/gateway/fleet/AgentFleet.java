package io.gpurental.gateway.fleet;

import io.gpurental.agent.runtime.InstanceFailure;
import io.gpurental.gateway.platform.Futures;
import io.gpurental.gateway.platform.Hashes;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
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

  /** The new end goes into the host's desired state (a new version, so its long poll wakes). */
  @Override
  public Future<Void> extend(String reservationId, Instant endsAt) {
    return instances.extend(reservationId, endsAt).compose(host -> {
      host.ifPresent(waits::changed);
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
    InstanceEvents events = eventsOf(reservationId);
    if (events == null) {
      LOG.warn("Instance {} is {}, but nothing listens for instance reports", reservationId, report.state());
      return Future.succeededFuture();
    }
    return switch (report.state()) {
      case InstanceLifecycle.RUNNING -> events.running(reservationId, ssh.orElseThrow()).mapEmpty();
      case InstanceLifecycle.PULLING -> events.pulling(reservationId, report.pull().bytesDone(),
          report.pull().bytesTotal()).mapEmpty();
      case InstanceLifecycle.FAILED -> (InstanceFailure.RENTERS_DOING.contains(report.reason())
          ? events.endedByRenter(reservationId, report.reason())
          : events.failed(reservationId, "host agent: " + report.reason())).mapEmpty();
      default -> Future.succeededFuture();
    };
  }

  /**
   * Hosts the mark-offline job just found silent: each instance they were running is interrupted
   * since the host's last heartbeat (the reservation credits the lost time, or fails it after the
   * grace). A failure is logged, not raised: the job's other hosts still go on.
   */
  Future<Void> hostsDown(List<String> hostIds, String reason) {
    return Futures.inSequence(hostIds, hostId -> instances.runningOn(hostId).compose(served -> each(served,
        instance -> interrupted(instance.reservationId(), reason, instance.lastHeard()))));
  }

  /** A silent host is heard from again at {@code at}: its running instances are served again. */
  Future<Void> hostBack(String hostId, Instant at) {
    return instances.runningOn(hostId).compose(served -> each(served,
        instance -> resumed(instance.reservationId(), at)));
  }

  /** Tells the reservation its instance is not served since {@code since} (host offline, GPU faulty). */
  Future<Boolean> interrupted(String reservationId, String reason, Instant since) {
    InstanceEvents events = eventsOf(reservationId);
    return events == null ? Future.succeededFuture(false) : events.interrupted(reservationId, reason, since);
  }

  /** Tells the reservation its instance is served again since {@code at}. */
  Future<Boolean> resumed(String reservationId, Instant at) {
    InstanceEvents events = eventsOf(reservationId);
    return events == null ? Future.succeededFuture(false) : events.resumed(reservationId, at);
  }

  private static Future<Void> each(List<InstanceRepository.Served> served,
      Function<InstanceRepository.Served, Future<Boolean>> call) {
    return Futures.inSequence(served, instance -> call.apply(instance).<Void>mapEmpty().recover(e -> {
      LOG.warn("Instance {} could not be told its host changed: {}", instance.reservationId(), e.getMessage());
      return Future.succeededFuture();
    }));
  }

  private InstanceEvents eventsOf(String reservationId) {
    return Optional.ofNullable(started.get(reservationId)).orElse(registered);
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
