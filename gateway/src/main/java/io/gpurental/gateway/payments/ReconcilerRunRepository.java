package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/** How the reconciler's runs went (any node's), in PostgreSQL; a week of them is kept. */
final class ReconcilerRunRepository {
  private static final String COLUMNS = "started_at, finished_at, refunds_retried, events_missed, events_applied,"
      + " events_failed, error";
  private static final String INSERT = "INSERT INTO reconciler_runs (" + COLUMNS + ")"
      + " VALUES ($1, now(), $2, $3, $4, $5, $6)";
  /** Old runs go, but never the last failure: the status names it however long ago it was. */
  private static final String PRUNE = """
      DELETE FROM reconciler_runs WHERE finished_at < now() - interval '7 days'
        AND id <> coalesce((SELECT max(id) FROM reconciler_runs WHERE error IS NOT NULL OR events_failed > 0), 0)""";
  private static final String LAST = "SELECT " + COLUMNS + " FROM reconciler_runs ORDER BY id DESC LIMIT 1";
  private static final String LAST_FAILED = "SELECT " + COLUMNS + " FROM reconciler_runs"
      + " WHERE error IS NOT NULL OR events_failed > 0 ORDER BY id DESC LIMIT 1";
  private static final String DAY = """
      SELECT count(*) AS runs, coalesce(sum(events_applied), 0) AS applied FROM reconciler_runs
      WHERE finished_at > now() - interval '24 hours'""";

  private ReconcilerRunRepository() {}

  static Future<Void> record(Pool pool, Instant startedAt, Payments.ReconcilerRun.Counts counts, String error) {
    Tuple row = Tuple.from(new Object[] {OffsetDateTime.ofInstant(startedAt, ZoneOffset.UTC), counts.refundsRetried(),
        counts.eventsMissed(), counts.eventsApplied(), counts.eventsFailed(), error});
    return pool.preparedQuery(INSERT).execute(row).compose(v -> pool.query(PRUNE).execute()).mapEmpty();
  }

  static Future<Payments.ReconciliationStatus> status(Pool pool, java.time.Duration interval) {
    return pool.query(LAST).execute().map(ReconcilerRunRepository::first)
        .compose(last -> pool.query(LAST_FAILED).execute().map(ReconcilerRunRepository::first)
            .compose(failed -> pool.query(DAY).execute().map(rows -> {
              Row day = rows.iterator().next();
              return new Payments.ReconciliationStatus(interval, last, failed, day.getLong("runs"),
                  day.getLong("applied"));
            })));
  }

  private static Optional<Payments.ReconcilerRun> first(io.vertx.sqlclient.RowSet<Row> rows) {
    if (rows.size() == 0) {
      return Optional.empty();
    }
    Row row = rows.iterator().next();
    return Optional.of(new Payments.ReconcilerRun(row.getOffsetDateTime("started_at").toInstant(),
        row.getOffsetDateTime("finished_at").toInstant(), new Payments.ReconcilerRun.Counts(
            row.getInteger("refunds_retried"), row.getInteger("events_missed"), row.getInteger("events_applied"),
            row.getInteger("events_failed")), row.getString("error")));
  }
}
