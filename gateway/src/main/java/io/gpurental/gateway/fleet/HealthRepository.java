package io.gpurental.gateway.fleet;

import io.gpurental.gateway.config.HealthConfig;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The health rules applied to one heartbeat, inside its transaction: each GPU's state through
 * {@link GpuHealth}, the host's through {@link HostHealth} and the host lifecycle. The host's GPU
 * rows are locked first, so two nodes taking heartbeats of one host apply them one after the other
 * ({@code FOR NO KEY UPDATE}: a hold inserting its GPUs, whose foreign key takes a key-share lock
 * on them, does not wait for the host's heartbeat).
 */
final class HealthRepository {
  private static final String LOCK_GPUS = """
      SELECT g.id, g.idx, gh.status, gh.reason, gh.since, gh.hot_samples, gh.last_violation_at, gh.ecc_uncorrected,
             now() AS now
      FROM gpus g LEFT JOIN gpu_health gh ON gh.gpu_id = g.id WHERE g.host_id = $1 ORDER BY g.idx FOR NO KEY UPDATE OF g""";
  private static final String STORE_GPU = """
      INSERT INTO gpu_health (gpu_id, status, reason, since, hot_samples, last_violation_at, ecc_uncorrected)
      VALUES ($1, $2, $3, $4, $5, $6, $7)
      ON CONFLICT (gpu_id) DO UPDATE SET status = EXCLUDED.status, reason = EXCLUDED.reason, since = EXCLUDED.since,
        hot_samples = EXCLUDED.hot_samples, last_violation_at = EXCLUDED.last_violation_at,
        ecc_uncorrected = EXCLUDED.ecc_uncorrected""";
  private static final String HOST =
      "SELECT status, health_violation_at, desired_version FROM hosts WHERE id = $1 FOR UPDATE";
  private static final String HOST_VIOLATION = """
      UPDATE hosts SET health_violation_at = now(), health_reason = $2 WHERE id = $1""";

  private HealthRepository() {}

  /** A GPU that changed health with this heartbeat. */
  record GpuChange(int index, String from, String to, String reason, Instant since) {}

  /**
   * What the heartbeat changed: the host's new status (if it moved) and the GPUs that changed;
   * and the host's desired-state version, read with its row (the heartbeat's answer).
   */
  record Changes(Optional<String> hostStatus, List<GpuChange> gpus, long desiredVersion) {}

  /** The host's GPU rows with their health, locked for the heartbeat's transaction. */
  record LockedGpus(RowSet<Row> rows) {
    /** The host's GPU indexes (what a heartbeat may report). */
    Set<Integer> indexes() {
      Set<Integer> indexes = new HashSet<>();
      rows.forEach(row -> indexes.add(row.getInteger("idx")));
      return indexes;
    }
  }

  /**
   * Locks the host's GPU rows first in the heartbeat's transaction: they also tell which GPUs a
   * heartbeat may report (one statement for both).
   */
  static Future<LockedGpus> lockGpus(SqlClient tx, String hostId) {
    return tx.preparedQuery(LOCK_GPUS).execute(Tuple.of(hostId)).map(LockedGpus::new);
  }

  static Future<Changes> apply(SqlClient tx, String hostId, LockedGpus locked, Telemetry sample, HealthConfig rules) {
    return Future.succeededFuture(locked.rows()).compose(rows -> {
      Map<Integer, Telemetry.Gpu> byIndex = new HashMap<>();
      sample.gpus().forEach(gpu -> byIndex.put(gpu.index(), gpu));
      List<Tuple> stores = new ArrayList<>();
      List<GpuChange> changes = new ArrayList<>();
      Instant now = Instant.now();
      for (Row row : rows) {
        now = row.getOffsetDateTime("now").toInstant();
        Telemetry.Gpu gpu = byIndex.get(row.getInteger("idx"));
        if (gpu == null) {
          continue;
        }
        GpuHealth.State before = state(row, now);
        GpuHealth.State after = GpuHealth.next(before, gpu, rules, now);
        // a steady GPU's row stays as it is: most heartbeats change nothing, and rewriting every
        // GPU's row each time was most of a heartbeat's cost (docs/benchmarks.md)
        if (row.getString("status") == null || !after.equals(before)) {
          stores.add(Tuple.from(new Object[] {row.getString("id"), after.status(), after.reason(),
              utc(after.since()), after.hotSamples(), utc(after.lastViolationAt()), after.eccUncorrected()}));
        }
        if (!after.status().equals(before.status())) {
          changes.add(new GpuChange(gpu.index(), before.status(), after.status(), after.reason(), after.since()));
        }
      }
      Instant at = now;
      Future<?> stored = stores.isEmpty() ? Future.succeededFuture() : tx.preparedQuery(STORE_GPU).executeBatch(stores);
      return stored.compose(v -> host(tx, hostId, sample, rules, at))
          .map(host -> new Changes(host.move(), List.copyOf(changes), host.desiredVersion()));
    });
  }

  /** The host's status move by the rules (if any), and its desired-state version. */
  private record HostOutcome(Optional<String> move, long desiredVersion) {}

  private static Future<HostOutcome> host(SqlClient tx, String hostId, Telemetry sample, HealthConfig rules,
      Instant now) {
    return tx.preparedQuery(HOST).execute(Tuple.of(hostId)).compose(rows -> {
      Row row = rows.iterator().next();
      long desiredVersion = row.getLong("desired_version");
      String status = row.getString("status");
      OffsetDateTime last = row.getOffsetDateTime("health_violation_at");
      HostHealth.Verdict verdict = HostHealth.judge(status, last == null ? null : last.toInstant(), sample, rules, now);
      Future<?> noted = verdict.violation() == null ? Future.succeededFuture()
          : tx.preparedQuery(HOST_VIOLATION).execute(Tuple.of(hostId, verdict.violation()));
      if (verdict.move().isEmpty()) {
        return noted.map(new HostOutcome(Optional.empty(), desiredVersion));
      }
      String to = verdict.move().get();
      return noted.compose(v -> HostRepository.move(tx, hostId, status, to))
          .map(new HostOutcome(Optional.of(to), desiredVersion));
    });
  }

  private static GpuHealth.State state(Row row, Instant now) {
    String status = row.getString("status");
    if (status == null) {
      return GpuHealth.State.initial(now);
    }
    OffsetDateTime last = row.getOffsetDateTime("last_violation_at");
    return new GpuHealth.State(status, row.getString("reason"), row.getOffsetDateTime("since").toInstant(),
        row.getInteger("hot_samples"), last == null ? null : last.toInstant(), row.getLong("ecc_uncorrected"));
  }

  private static OffsetDateTime utc(Instant at) {
    return at == null ? null : at.atOffset(ZoneOffset.UTC);
  }
}
