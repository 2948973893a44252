package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.fleet.InstanceEvents;
import io.gpurental.gateway.fleet.SshAccess;
import io.gpurental.gateway.payments.Payments;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts and ends windows: confirmed reservations whose start has come go to {@code provisioning}
 * and their instance is started on the host; reservations whose end has come go to
 * {@code completed} and their instance is stopped. Every node ticks; a Hazelcast lock lets one
 * run at a time, and the SQL only moves rows that are due, so a second runner changes nothing.
 * Instances stuck in provisioning (a node died before the host answered) are asked for again. A
 * window ends on time even while an extension of it waits for payment: that extension is
 * cancelled with the window (its GPUs released, its checkout closed), and a payment for it that
 * still arrives is refunded (see {@link ReservationPayments}).
 */
final class Scheduler implements InstanceEvents {
  private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
  private static final String LOCK = "reservations.scheduler";
  private static final String END = """
      WITH due AS (
        SELECT id, status FROM reservations
        WHERE status IN ('confirmed', 'provisioning', 'running') AND upper(period) <= now()
        FOR UPDATE SKIP LOCKED),
      ended AS (
        UPDATE reservations r SET status = 'completed', updated_at = now() FROM due WHERE r.id = due.id
        RETURNING r.id, r.account_id, due.status AS was),
      unpaid AS (
        UPDATE reservation_extensions x SET status = 'cancelled', hold_expires_at = NULL FROM ended
        WHERE x.reservation_id = ended.id AND x.status = 'pending_payment' RETURNING x.id),
      released AS (
        UPDATE reservation_gpus SET active = false WHERE extension_id IN (SELECT id FROM unpaid)),
      closed AS (
        UPDATE payments SET status = 'canceled', updated_at = now()
        WHERE extension_id IN (SELECT id FROM unpaid) AND status = 'pending'
        RETURNING reservation_id, checkout_session_id),
      logged AS (
        INSERT INTO reservation_events (reservation_id, from_status, to_status, cause)
        SELECT id, was, 'completed', 'window ended' FROM ended)
      SELECT id, account_id, was, array(SELECT c.checkout_session_id FROM closed c
                                       WHERE c.reservation_id = ended.id AND c.checkout_session_id IS NOT NULL)
                                  AS open_checkouts
      FROM ended""";
  private static final String START = """
      WITH due AS (
        SELECT id FROM reservations
        WHERE status = 'confirmed' AND lower(period) <= now() AND upper(period) > now() FOR UPDATE SKIP LOCKED),
      started AS (
        UPDATE reservations r SET status = 'provisioning', updated_at = now() FROM due WHERE r.id = due.id
        RETURNING r.id, r.account_id),
      logged AS (
        INSERT INTO reservation_events (reservation_id, from_status, to_status, cause)
        SELECT id, 'confirmed', 'provisioning', 'window started; starting the instance on the host' FROM started)
      SELECT id, account_id FROM started""";
  private static final String LAUNCHES = """
      SELECT r.id, r.host_id, r.ssh_public_key, upper(r.period) AS ends_at,
             array(SELECT DISTINCT g.idx FROM reservation_gpus rg JOIN fleet_gpus_view g ON g.id = rg.gpu_id
                   WHERE rg.reservation_id = r.id AND rg.active ORDER BY g.idx) AS gpu_indexes
      FROM reservations r WHERE r.status = 'provisioning'
        AND (r.id = ANY($1) OR r.updated_at < now() - $2::integer * interval '1 second')""";
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final Fleet launcher;
  private final Duration stuckAfter;
  private final HostFailures failures;
  private final Payments payments;
  private long timer = -1;

  Scheduler(Vertx vertx, ReservationRepository repository, Fleet launcher, Duration stuckAfter,
      HostFailures failures, Payments payments) {
    this.vertx = vertx;
    this.repository = repository;
    this.launcher = launcher;
    this.stuckAfter = stuckAfter;
    this.failures = failures;
    this.payments = payments;
  }

  void start(Duration every) {
    timer = vertx.setPeriodic(every.toMillis(), id -> tick());
  }

  void stop() {
    vertx.cancelTimer(timer);
  }

  void tick() {
    vertx.sharedData().getLockWithTimeout(LOCK, 10).onSuccess(lock -> run()
        .onFailure(e -> LOG.warn("Scheduler tick failed; the next one retries: {}", e.getMessage()))
        .onComplete(done -> lock.release()));
  }

  private Future<Void> run() {
    return repository.pool().withTransaction(tx -> tx.query(END).execute()).compose(ended -> {
      ended.forEach(row -> {
        for (String session : row.getArrayOfStrings("open_checkouts")) {
          payments.expire(session);
        }
        ReservationEvents.publish(vertx, row.getString("id"), row.getString("account_id"), Lifecycle.COMPLETED);
        if (!Lifecycle.CONFIRMED.equals(row.getString("was"))) {
          launcher.stop(row.getString("id"));
        }
      });
      if (ended.size() > 0) {
        CatalogChanges.publish(vertx, "reservations completed");
      }
      return repository.pool().withTransaction(tx -> tx.query(START).execute());
    }).compose(started -> {
      started.forEach(row -> ReservationEvents.publish(vertx, row.getString("id"), row.getString("account_id"),
          Lifecycle.PROVISIONING));
      return launch(started);
    });
  }

  /** Asks hosts to start what just started, and again for what is stuck. */
  private Future<Void> launch(RowSet<Row> started) {
    String[] ids = new String[started.size()];
    int i = 0;
    for (Row row : started) {
      ids[i++] = row.getString("id");
    }
    return repository.pool().preparedQuery(LAUNCHES)
        .execute(Tuple.of(ids, (int) stuckAfter.toSeconds()))
        .map(rows -> {
          rows.forEach(row -> launcher.start(new Fleet.Launch(row.getString("id"), row.getString("host_id"),
              Arrays.asList(row.getArrayOfIntegers("gpu_indexes")), row.getString("ssh_public_key"),
              row.getOffsetDateTime("ends_at").toInstant()), this)
              .onFailure(e -> LOG.warn("Host did not take {}: {}", row.getString("id"), e.getMessage())));
          return null;
        });
  }

  @Override
  public Future<Boolean> running(String reservationId, SshAccess ssh) {
    return repository.pool().withTransaction(tx -> ReservationRepository.transition(tx, reservationId,
            Lifecycle.PROVISIONING, Lifecycle.RUNNING, "instance ready; SSH on " + ssh.host() + ":" + ssh.port(), false)
        .compose(moved -> !moved ? Future.succeededFuture(false)
            : tx.preparedQuery("UPDATE reservations SET ssh_endpoint = $2, ssh_host_key_fingerprint = $3,"
                    + " ssh_known_hosts = $4 WHERE id = $1")
                .execute(Tuple.of(reservationId, ssh.user() + "@" + ssh.host() + ":" + ssh.port(),
                    ssh.hostKeyFingerprint(), ssh.knownHosts())).map(true)))
        .onSuccess(moved -> {
          if (moved) {
            repository.pool().preparedQuery("SELECT account_id FROM reservations WHERE id = $1")
                .execute(Tuple.of(reservationId)).onSuccess(rows -> ReservationEvents.publish(vertx, reservationId,
                    rows.iterator().next().getString(0), Lifecycle.RUNNING));
          }
        });
  }

  @Override
  public Future<Boolean> failed(String reservationId, String reason) {
    return failures.failed(reservationId, reason);
  }
}
