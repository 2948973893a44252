package io.gpurental.gateway.operator.alerts;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of notifications: claiming due deliveries (each claim counts an attempt and pushes the
 * next one past a lease, so a node that dies mid-send is retried by another, and two nodes never
 * send the same attempt), and recording each attempt's outcome in the delivery log. A resolve
 * waits while its channel's open notification is still being retried, so receivers get them in order.
 */
final class DeliveryRepository {
  private static final String CLAIM = """
      WITH claimed AS (
        UPDATE alert_deliveries d SET attempts = d.attempts + 1,
                                      next_attempt_at = now() + $2::bigint * interval '1 millisecond'
        WHERE d.id IN (SELECT id FROM alert_deliveries p WHERE status = 'pending' AND next_attempt_at <= now()
                         AND NOT EXISTS (SELECT 1 FROM alert_deliveries o WHERE p.transition = 'resolved'
                                           AND o.incident_id = p.incident_id AND o.channel = p.channel
                                           AND o.transition = 'opened' AND o.status = 'pending')
                       ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.incident_id, d.transition, d.channel, d.attempts)
      SELECT c.id, c.channel, c.attempts, c.incident_id, i.rule, i.target, c.transition,
             CASE WHEN c.transition = 'opened' THEN i.opened_at ELSE i.resolved_at END AS at, i.details::text
      FROM claimed c JOIN alert_incidents i ON i.id = c.incident_id
      ORDER BY c.id""";
  private static final String LOG_ATTEMPT = """
      INSERT INTO alert_delivery_attempts (delivery_id, attempt, status_code, error, next_attempt_at)
      VALUES ($1, $2, $3, $4, CASE WHEN $5::bigint IS NULL THEN NULL
                                   ELSE now() + $5::bigint * interval '1 millisecond' END)""";
  private static final String DELIVERED = """
      UPDATE alert_deliveries SET status = 'delivered', delivered_at = now(), last_status_code = $2, last_error = NULL
      WHERE id = $1""";
  private static final String RETRY = """
      UPDATE alert_deliveries SET last_status_code = $2, last_error = $3,
                                  next_attempt_at = now() + $4::bigint * interval '1 millisecond'
      WHERE id = $1""";
  private static final String GIVE_UP = """
      UPDATE alert_deliveries SET status = 'failed', last_status_code = $2, last_error = $3 WHERE id = $1""";
  private final Pool pool;

  DeliveryRepository(Pool pool) {
    this.pool = pool;
  }

  Future<List<Notification>> claimDue(int limit, Duration lease) {
    return pool.preparedQuery(CLAIM).execute(Tuple.of(limit, lease.toMillis())).map(rows -> {
      List<Notification> due = new ArrayList<>();
      for (Row row : rows) {
        due.add(new Notification(row.getLong("id"), row.getString("channel"), row.getInteger("attempts"),
            row.getString("incident_id"), row.getString("rule"), row.getString("target"), row.getString("transition"),
            row.getOffsetDateTime("at"), row.getString("details")));
      }
      return due;
    });
  }

  /**
   * Records an attempt: delivered, retried after {@code retryIn}, or (retryIn null) given up.
   */
  Future<Void> record(Notification sent, Outcome outcome, Duration retryIn) {
    Long retryMillis = outcome.delivered() || retryIn == null ? null : retryIn.toMillis();
    String error = outcome.error() == null ? null : truncate(outcome.error());
    return pool.withTransaction(tx -> tx.preparedQuery(LOG_ATTEMPT)
        .execute(Tuple.of(sent.deliveryId(), sent.attempt(), outcome.statusCode(), error, retryMillis))
        .compose(v -> {
          if (outcome.delivered()) {
            return tx.preparedQuery(DELIVERED).execute(Tuple.of(sent.deliveryId(), outcome.statusCode()));
          }
          return retryMillis == null
              ? tx.preparedQuery(GIVE_UP).execute(Tuple.of(sent.deliveryId(), outcome.statusCode(), error))
              : tx.preparedQuery(RETRY).execute(Tuple.of(sent.deliveryId(), outcome.statusCode(), error, retryMillis));
        })).mapEmpty();
  }

  private static String truncate(String error) {
    return error.length() > 500 ? error.substring(0, 500) : error;
  }
}
