package io.gpurental.gateway.payments;

import io.gpurental.gateway.payments.RefundRepository.NewRefund;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Operators' manual refund and credit requests and the refunds each made, in PostgreSQL. */
final class RefundRequestRepository {
  private static final String SELECT = """
      SELECT q.id, q.reservation_id, q.kind, q.amount, q.currency, q.note, q.requested_by, q.created_at,
             coalesce((SELECT json_agg(%s ORDER BY f.created_at, f.id) FROM refunds f WHERE f.request_id = q.id), '[]')
               AS refunds
      FROM refund_requests q""".formatted(RefundRepository.AS_JSON);
  private static final String BY_KEY = SELECT + " WHERE q.requested_by = $1 AND q.idempotency_key = $2";
  private static final String BY_ID = SELECT + " WHERE q.id = $1";
  private static final String INSERT = """
      INSERT INTO refund_requests (id, reservation_id, kind, amount, currency, note, requested_by, idempotency_key)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (requested_by, idempotency_key) DO NOTHING RETURNING id""";
  private static final String INSERT_REFUND = """
      INSERT INTO refunds (id, payment_id, amount, currency, reason, status, kind, note, request_id)
      VALUES ($1, $2, $3, $4, 'operator', 'pending', $5, $6, $7)""";

  private RefundRequestRepository() {}

  /** A request as stored, with its refunds in the {@link RefundRepository#AS_JSON} form. */
  record StoredRequest(String id, String reservationId, String kind, long amount, String currency, String note,
      String requestedBy, java.time.OffsetDateTime createdAt, List<JsonObject> refunds) {}

  static Future<Optional<StoredRequest>> byKey(SqlClient client, String requestedBy, String key) {
    return client.preparedQuery(BY_KEY).execute(Tuple.of(requestedBy, key)).map(RefundRequestRepository::first);
  }

  static Future<StoredRequest> byId(SqlClient client, String id) {
    return client.preparedQuery(BY_ID).execute(Tuple.of(id)).map(rows -> first(rows).orElseThrow());
  }

  /** Writes the request; false when the same operator's key is taken (a concurrent retry). */
  static Future<Boolean> insert(SqlClient tx, String id, Payments.ManualRefund request) {
    return tx.preparedQuery(INSERT).execute(Tuple.from(new Object[] {id, request.reservationId(), request.kind(),
        request.amount(), request.currency(), request.note(), request.actorId(), request.idempotencyKey()}))
        .map(rows -> rows.size() == 1);
  }

  /** Writes the request's refunds as pending. */
  static Future<Void> insertRefunds(SqlClient tx, String requestId, String kind, String note, List<NewRefund> refunds) {
    List<Tuple> batch = new ArrayList<>();
    refunds.forEach(r -> batch.add(Tuple.from(new Object[] {r.id(), r.paymentId(), r.amount(), r.currency(), kind,
        note, requestId})));
    return tx.preparedQuery(INSERT_REFUND).executeBatch(batch).mapEmpty();
  }

  private static Optional<StoredRequest> first(io.vertx.sqlclient.RowSet<Row> rows) {
    if (rows.size() == 0) {
      return Optional.empty();
    }
    Row row = rows.iterator().next();
    List<JsonObject> refunds = new ArrayList<>();
    ((JsonArray) row.getJson("refunds")).forEach(refund -> refunds.add((JsonObject) refund));
    return Optional.of(new StoredRequest(row.getString("id"), row.getString("reservation_id"), row.getString("kind"),
        row.getLong("amount"), row.getString("currency"), row.getString("note"), row.getString("requested_by"),
        row.getOffsetDateTime("created_at"), refunds));
  }
}
