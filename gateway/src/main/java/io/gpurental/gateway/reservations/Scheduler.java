package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.fleet.InstanceEvents;
import io.gpurental.gateway.fleet.SshAccess;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.jobs.JobRun;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts and ends windows: confirmed reservations whose start has come go to {@code provisioning}
 * and their instance is started on the host; reservations whose end has come go to
 * {@code completed} and their instance is stopped (one still provisioning never became ready:
 * {@link ReadyGuarantee} fails and refunds it instead). A cluster job runs it on one node at a
 * time, and the SQL only moves rows that are due, so a second runner changes nothing.
 * Instances stuck in provisioning (a node died before the host answered) are asked for again. A
 * window ends on time even while an extension of it waits for payment: that extension is
 * cancelled with the window (its GPUs released, its checkout closed), and a payment for it that
 * still arrives is refunded (see {@link ReservationPayments}).
 */
final class Scheduler implements InstanceEvents {
  private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final Fleet launcher;
  private final Duration stuckAfter;
  private final HostFailures failures;
  private final Payments payments;
  private final ReadyGuarantee ready;
  private final Downtime downtime;
  private final Cancellations cancellations;
  private final Handover handover;
  /** 0.2, 0.4, … 3.2 s: six tries within about 6 s. */
  private static final long HANDOVER_BACKOFF_MS = 200;

  Scheduler(Vertx vertx, ReservationRepository repository, Fleet launcher, Duration stuckAfter,
      HostFailures failures, Payments payments, ReadyGuarantee ready, Downtime downtime, Cancellations cancellations) {
    this.vertx = vertx;
    this.repository = repository;
    this.launcher = launcher;
    this.stuckAfter = stuckAfter;
    this.failures = failures;
    this.payments = payments;
    this.ready = ready;
    this.downtime = downtime;
    this.cancellations = cancellations;
    this.handover = new Handover(vertx, launcher, HANDOVER_BACKOFF_MS);
  }

  /**
   * One pass: repairs interruptions the fleet's notices missed (never holding back the rest), fails
   * what was down too long and what never became ready (both refunded), ends the windows that are
   * over, then starts those due (and relaunches the stuck). Each step begins only while the run is
   * still this node's ({@link JobRun}); a step skipped is done by the next pass.
   */
  Future<Void> run(JobRun run) {
    return downtime.reconcileWithFleet().recover(e -> {
      LOG.warn("Interruptions were not compared with the fleet; the next pass retries: {}", e.getMessage());
      return Future.succeededFuture();
    }).compose(v -> run.stillCurrent()).compose(v -> downtime.failOverdue())
        .compose(v -> run.stillCurrent()).compose(v -> ready.failNeverReady())
        .compose(v -> run.stillCurrent()).compose(v -> repository.pool().withTransaction(this::endWindows))
        .onSuccess(this::announceEnded)
        .compose(v -> run.stillCurrent()).compose(v -> repository.pool().withTransaction(Scheduler::startWindows))
        .onSuccess(started -> started.forEach(moved -> ReservationEvents.publish(vertx, moved.id(),
            moved.accountId(), ReservationStatus.PROVISIONING.id())))
        .compose(started -> run.stillCurrent().compose(v -> launch(started.stream()
            .map(ReservationRepository.Moved::id).toArray(String[]::new))));
  }

  /** Tells the renters, stops the instances and closes the extensions' checkouts of windows just ended. */
  private void announceEnded(Ended ended) {
    ended.windows().forEach(moved -> {
      ReservationEvents.publish(vertx, moved.id(), moved.accountId(), ReservationStatus.COMPLETED.id());
      if (moved.from() != ReservationStatus.CONFIRMED) {
        launcher.stop(moved.id());
      }
    });
    ended.openCheckouts().forEach(payments::expire);
    if (!ended.windows().isEmpty()) {
      CatalogChanges.publish(vertx, "reservations completed");
    }
  }

  /** Windows whose start has come go to provisioning, their credits due. */
  private static Future<List<ReservationRepository.Moved>> startWindows(SqlConnection tx) {
    return ReservationRepository.moveStartedWindows(tx, ReservationStatus.PROVISIONING,
            "window started; starting the instance on the host")
        .compose(moved -> CreditRepository.setDue(tx, moved.stream().map(ReservationRepository.Moved::id)
            .toArray(String[]::new)).map(moved));
  }

  private record Ended(List<ReservationRepository.Moved> windows, List<String> openCheckouts) {}

  /** Windows that are over complete; extensions still unpaid go with them, their checkouts closed. */
  private Future<Ended> endWindows(SqlConnection tx) {
    return ReservationRepository.moveEndedWindows(tx, ReservationStatus.COMPLETED, "window ended")
        .compose(windows -> ExtensionRepository.cancelUnpaidOfEnded(tx,
                windows.stream().map(ReservationRepository.Moved::id).toArray(String[]::new))
            .compose(extensions -> Payments.cancelPendingExtensions(tx, extensions))
            .map(sessions -> new Ended(windows, sessions)));
  }

  /** Asks hosts to start what just started, and again for what is stuck. */
  private Future<Void> launch(String[] ids) {
    return repository.launches(ids, (int) stuckAfter.toSeconds())
        .map(rows -> {
          rows.forEach(row -> handover.start(launchOf(row), this));
          return null;
        });
  }

  /** A provisioning reservation's instance: its GPUs, key, end, image and the offer's share × its GPUs. */
  private static Fleet.Launch launchOf(Row row) {
    String ref = row.getString("image_ref");
    Integer cpus = row.getInteger("cpu_cores_per_gpu");
    return new Fleet.Launch(row.getString("id"), row.getString("host_id"),
        Arrays.asList(row.getArrayOfIntegers("gpu_indexes")), row.getString("ssh_public_key"),
        row.getOffsetDateTime("ends_at").toInstant(), row.getOffsetDateTime("due_at").toInstant(),
        ref == null ? null : new Fleet.Image(ref, Arrays.asList(row.getArrayOfIntegers("image_ports"))),
        cpus == null ? null : Fleet.Limits.of(row.getInteger("gpu_count"), cpus, row.getInteger("ram_gb_per_gpu"),
            row.getInteger("nvme_gb_per_gpu")));
  }

  @Override
  public Future<Boolean> pulling(String reservationId, long bytesDone, Long bytesTotal) {
    return InstanceProgressRepository.pulling(repository.pool(), reservationId, bytesDone, bytesTotal)
        .onSuccess(added -> {
          if (added) {
            repository.accountOf(reservationId).onSuccess(account -> ReservationEvents.publish(vertx, reservationId,
                account, ReservationStatus.PROVISIONING.id()));
          }
        });
  }

  @Override
  public Future<Boolean> running(String reservationId, SshAccess ssh) {
    return repository.pool().withTransaction(tx -> ReservationRepository.transition(tx, reservationId,
            ReservationStatus.PROVISIONING, ReservationStatus.RUNNING,
            "instance ready; SSH on " + ssh.host() + ":" + ssh.port(), false)
        .compose(moved -> !moved ? Future.succeededFuture((List<String>) null)
            : ReservationRepository.setSshAccess(tx, reservationId, ssh.user() + "@" + ssh.host() + ":" + ssh.port(),
                ssh.hostKeyFingerprint(), ssh.knownHosts())
                .compose(v -> InstanceProgressRepository.setPorts(tx, reservationId, ssh.ports()))
                .compose(v -> ready.onRunning(tx, reservationId))))
        .compose(credited -> credited == null ? Future.succeededFuture(false)
            : payments.executeRefunds(credited).map(true))
        .onSuccess(moved -> {
          if (moved) {
            repository.accountOf(reservationId).onSuccess(account -> ReservationEvents.publish(vertx, reservationId,
                account, ReservationStatus.RUNNING.id()));
          }
        });
  }

  @Override
  public Future<Boolean> failed(String reservationId, String reason) {
    return failures.failed(reservationId, reason);
  }

  @Override
  public Future<Boolean> endedByRenter(String reservationId, String reason) {
    return cancellations.endedByRenter(reservationId, reason);
  }

  @Override
  public Future<Boolean> interrupted(String reservationId, String reason, Instant since) {
    return downtime.interrupted(reservationId, reason, since);
  }

  @Override
  public Future<Boolean> resumed(String reservationId, Instant at) {
    return downtime.resumed(reservationId, at);
  }
}
