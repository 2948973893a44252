package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The instances wanted on agent-run hosts, each host's desired-state version, and agents' reports. */
final class InstanceRepository {
  /** Only on hosts an agent enrolled; a stopped instance is not wanted again by a late start. */
  private static final String DESIRE = """
      INSERT INTO instances (reservation_id, host_id, gpu_indexes, ssh_public_key, unix_user, ends_at, due_at,
                             image_ref, image_ports, limits)
      SELECT $1, h.id, $3, $4, $5, $6, $7, $8, $9, $10 FROM hosts h WHERE h.id = $2 AND h.enrolled_at IS NOT NULL
      ON CONFLICT (reservation_id) DO UPDATE SET gpu_indexes = EXCLUDED.gpu_indexes,
        ssh_public_key = EXCLUDED.ssh_public_key, ends_at = EXCLUDED.ends_at, updated_at = now(),
        due_at = coalesce(instances.due_at, EXCLUDED.due_at)
      WHERE instances.desired
      RETURNING host_id""";
  private static final String UNDESIRE = """
      UPDATE instances SET desired = false, updated_at = now() WHERE reservation_id = $1 AND desired RETURNING host_id""";
  private static final String EXTEND = """
      UPDATE instances SET ends_at = $2, updated_at = now() WHERE reservation_id = $1 AND desired AND ends_at < $2
      RETURNING host_id""";
  private static final String BUMP = "UPDATE hosts SET desired_version = desired_version + 1 WHERE id = $1";
  private static final String DESIRED = """
      SELECT i.reservation_id, i.unix_user, i.ends_at, i.ssh_public_key, i.image_ref, i.image_ports, i.limits,
             array(SELECT g.idx FROM gpus g WHERE g.host_id = i.host_id AND g.idx = ANY (i.gpu_indexes) ORDER BY g.idx) AS idxs,
             array(SELECT g.uuid FROM gpus g WHERE g.host_id = i.host_id AND g.idx = ANY (i.gpu_indexes) ORDER BY g.idx) AS uuids
      FROM instances i WHERE i.host_id = $1 AND i.desired ORDER BY i.created_at, i.reservation_id""";
  private static final String VERSION = "SELECT desired_version FROM hosts WHERE id = $1";
  /** Every answer is the agent's to take: what it holds for the first time was delivered now. */
  private static final String DELIVERED = """
      UPDATE instances SET delivered_at = now() WHERE host_id = $1 AND desired AND delivered_at IS NULL""";
  /** The instances a host serves (running and wanted), and when the host was last heard from. */
  private static final String RUNNING_ON = """
      SELECT i.reservation_id, coalesce(b.last_at, now()) AS last_at FROM instances i
      LEFT JOIN host_heartbeats b ON b.host_id = i.host_id
      WHERE i.host_id = $1 AND i.desired AND i.state = 'running' ORDER BY i.reservation_id""";
  private static final String LOCK_INSTANCE = """
      SELECT state, desired FROM instances WHERE reservation_id = $1 AND host_id = $2 FOR UPDATE""";
  private static final String REPORT = """
      UPDATE instances SET state = $2, ssh_host = $3, ssh_port = $4, ssh_user = $5, host_key_fingerprint = $6,
             host_key = $7, reason = $8, reported_at = now(), updated_at = now(),
             pull_bytes_done = CASE WHEN $2 = 'pulling' THEN $9 ELSE pull_bytes_done END,
             pull_bytes_total = CASE WHEN $2 = 'pulling' THEN $10 ELSE pull_bytes_total END,
             published_ports = CASE WHEN $2 = 'running' THEN $11 ELSE published_ports END,
             running_at = CASE WHEN $2 = 'running' THEN coalesce(running_at, now()) ELSE running_at END
      WHERE reservation_id = $1""";

  private static final String RUNNING_ON_GPU = """
      SELECT reservation_id FROM instances
      WHERE host_id = $1 AND desired AND state = 'running' AND $2 = ANY (gpu_indexes) ORDER BY reservation_id""";

  private final Pool pool;

  InstanceRepository(Pool pool) {
    this.pool = pool;
  }

  /** Wants the instance on its host; the host id when an agent runs that host, else empty. */
  Future<Optional<String>> desire(Fleet.Launch launch, String unixUser) {
    Fleet.Image image = launch.image();
    Fleet.Limits limits = launch.limits();
    Tuple params = Tuple.from(new Object[] {launch.reservationId(), launch.hostId(),
        launch.gpuIndexes().toArray(new Integer[0]), launch.sshPublicKey(), unixUser,
        launch.endsAt().atOffset(ZoneOffset.UTC), launch.dueAt() == null ? null : launch.dueAt().atOffset(ZoneOffset.UTC),
        image == null ? null : image.ref(), (image == null ? List.<Integer>of() : image.ports()).toArray(new Integer[0]),
        limits == null ? null : new JsonObject().put("cpus", limits.cpus()).put("memory_mib", limits.memoryMib())
            .put("disk_gb", limits.diskGb()).put("pids", limits.pids()).put("shm_mib", limits.shmMib())});
    return pool.withTransaction(tx -> tx.preparedQuery(DESIRE).execute(params).compose(rows -> bumped(tx, rows)));
  }

  /** No longer wants the instance; the host id when it was wanted on an agent's host. */
  /** The wanted instances the agent reported running on the host's GPU {@code index}. */
  Future<List<String>> runningOn(String hostId, int index) {
    return pool.preparedQuery(RUNNING_ON_GPU).execute(Tuple.of(hostId, index)).map(rows -> {
      List<String> ids = new ArrayList<>();
      rows.forEach(row -> ids.add(row.getString(0)));
      return ids;
    });
  }

  Future<Optional<String>> undesire(String reservationId) {
    return pool.withTransaction(tx -> tx.preparedQuery(UNDESIRE).execute(Tuple.of(reservationId))
        .compose(rows -> bumped(tx, rows)));
  }

  /**
   * Moves a desired instance's end later (extensions only lengthen, so of two announced close
   * together the later end wins); answers its host when it moved (the host's version is bumped).
   */
  Future<Optional<String>> extend(String reservationId, Instant endsAt) {
    return pool.withTransaction(tx -> tx.preparedQuery(EXTEND)
        .execute(Tuple.of(reservationId, endsAt.atOffset(ZoneOffset.UTC)))
        .compose(rows -> bumped(tx, rows)));
  }

  Future<DesiredState> desiredState(String hostId) {
    return pool.withTransaction(tx -> tx.preparedQuery(DELIVERED).execute(Tuple.of(hostId))
        .compose(delivered -> tx.preparedQuery(VERSION).execute(Tuple.of(hostId)))
        .compose(version -> ImageRepository.prePull(tx).compose(prePull -> tx.preparedQuery(DESIRED)
            .execute(Tuple.of(hostId)).map(rows -> {
              List<DesiredState.Instance> instances = new ArrayList<>();
              rows.forEach(row -> instances.add(instance(row)));
              return new DesiredState(version.iterator().next().getLong(0), instances, prePull.refs(),
                  prePull.cacheLimitGb());
            }))));
  }

  private static DesiredState.Instance instance(Row row) {
    String ref = row.getString("image_ref");
    Object limits = row.getValue("limits");
    return new DesiredState.Instance(row.getString("reservation_id"), row.getString("unix_user"),
        row.getOffsetDateTime("ends_at"), row.getString("ssh_public_key"), Arrays.asList(row.getArrayOfIntegers("idxs")),
        Arrays.asList(row.getArrayOfStrings("uuids")),
        ref == null ? null : new Fleet.Image(ref, Arrays.asList(row.getArrayOfIntegers("image_ports"))),
        limits instanceof JsonObject l ? new Fleet.Limits(l.getInteger("cpus"), l.getLong("memory_mib"),
            l.getInteger("disk_gb"), l.getInteger("pids"), l.getLong("shm_mib")) : null);
  }

  /** An instance a host was serving, and since when it may not be (the host's last heartbeat). */
  record Served(String reservationId, Instant lastHeard) {}

  /** The running instances of a host. */
  Future<List<Served>> runningOn(String hostId) {
    return pool.preparedQuery(RUNNING_ON).execute(Tuple.of(hostId)).map(rows -> {
      List<Served> served = new ArrayList<>();
      rows.forEach(row -> served.add(new Served(row.getString("reservation_id"),
          row.getOffsetDateTime("last_at").toInstant())));
      return served;
    });
  }

  /** An agent's report, already checked; answers the state before it (null: first report). */
  record Report(String state, String sshHost, Integer sshPort, String sshUser, String hostKeyFingerprint,
      String hostKey, String reason, Pull pull, List<PublishedPort> ports) {}

  /** How far a pull is: bytes done, of a total that may not be known (null). */
  record Pull(long bytesDone, Long bytesTotal) {}

  /** The stored state before this report, and whether the instance is still wanted. */
  record Previous(String state, boolean desired) {}

  /** Stores the report if the lifecycle allows it; empty when the instance is not on this host. */
  Future<Optional<Previous>> report(String hostId, String reservationId, Report report) {
    return pool.withTransaction(tx -> tx.preparedQuery(LOCK_INSTANCE).execute(Tuple.of(reservationId, hostId))
        .compose(rows -> {
          if (rows.size() == 0) {
            return Future.succeededFuture(Optional.empty());
          }
          Row row = rows.iterator().next();
          Previous previous = new Previous(row.getString("state"), row.getBoolean("desired"));
          InstanceLifecycle.check(reservationId, previous.state(), report.state());
          return tx.preparedQuery(REPORT).execute(Tuple.from(new Object[] {reservationId, report.state(),
                  report.sshHost(), report.sshPort(), report.sshUser(), report.hostKeyFingerprint(), report.hostKey(),
                  report.reason(), report.pull() == null ? null : report.pull().bytesDone(),
                  report.pull() == null ? null : report.pull().bytesTotal(), portsJson(report.ports())}))
              .map(v -> Optional.of(previous));
        }));
  }

  private static io.vertx.core.json.JsonArray portsJson(List<PublishedPort> ports) {
    if (ports == null) {
      return null;
    }
    io.vertx.core.json.JsonArray json = new io.vertx.core.json.JsonArray();
    ports.forEach(p -> json.add(new JsonObject().put("container_port", p.containerPort()).put("host_port", p.hostPort())));
    return json;
  }

  private static Future<Optional<String>> bumped(SqlClient tx, io.vertx.sqlclient.RowSet<Row> rows) {
    if (rows.size() == 0) {
      return Future.succeededFuture(Optional.empty());
    }
    String hostId = rows.iterator().next().getString("host_id");
    return tx.preparedQuery(BUMP).execute(Tuple.of(hostId)).map(v -> Optional.of(hostId));
  }
}
