package io.gpurental.gateway.operator.admin;

import io.gpurental.gateway.platform.Page;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the administration reads, all through views others publish: every renter's reservations
 * ({@code operator_reservations_view}, reservations) with who booked them ({@code account_names_view}, auth).
 */
final class AdminRepository {
  private static final String SELECT = """
      SELECT r.*, a.display_name, a.primary_email, a.suspended_at IS NOT NULL AS suspended
      FROM operator_reservations_view r LEFT JOIN account_names_view a ON a.account_id = r.account_id""";
  private static final String LIST = SELECT + "\n" + """
       WHERE ($1::text IS NULL OR r.status = $1) AND ($2::text IS NULL OR r.account_id = $2)
         AND ($3::text IS NULL OR r.host_id = $3) AND ($4::timestamptz IS NULL OR r.end_at > $4)
         AND ($5::timestamptz IS NULL OR r.start_at < $5)
         AND ($6::timestamptz IS NULL OR (r.created_at, r.id) < ($6, $7))
       ORDER BY r.created_at DESC, r.id DESC LIMIT $8""";
  private static final String ONE = SELECT + " WHERE r.id = $1";

  private final Pool pool;

  AdminRepository(Pool pool) {
    this.pool = pool;
  }

  /** What to list; null fields do not filter. */
  record Filter(String status, String accountId, String hostId, OffsetDateTime from, OffsetDateTime to) {}

  /** A reservation as the operator lists it (amounts in minor units of {@code currency}). */
  record Listed(String id, String accountId, String displayName, String primaryEmail, boolean suspended,
      String offerId, String hostId, int gpuCount, OffsetDateTime start, OffsetDateTime end, String status,
      long total, long paid, long refunded, String currency, String paymentMethod, OffsetDateTime createdAt) {}

  /** Newest first after the cursor; one more than {@code limit} tells of a next page. */
  Future<List<Listed>> reservations(Filter filter, Optional<Page.Position> after, int limit) {
    Tuple params = Tuple.from(new Object[] {filter.status(), filter.accountId(), filter.hostId(), filter.from(),
        filter.to(), after.map(Page.Position::createdAt).orElse(null), after.map(Page.Position::id).orElse(null),
        limit + 1});
    return pool.preparedQuery(LIST).execute(params).map(rows -> {
      List<Listed> list = new ArrayList<>();
      rows.forEach(row -> list.add(listed(row)));
      return list;
    });
  }

  Future<Optional<Listed>> reservation(String id) {
    return pool.preparedQuery(ONE).execute(Tuple.of(id))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(listed(rows.iterator().next())));
  }

  private static Listed listed(Row row) {
    return new Listed(row.getString("id"), row.getString("account_id"), row.getString("display_name"),
        row.getString("primary_email"), Boolean.TRUE.equals(row.getBoolean("suspended")), row.getString("offer_id"),
        row.getString("host_id"), row.getInteger("gpu_count"), row.getOffsetDateTime("start_at"),
        row.getOffsetDateTime("end_at"), row.getString("status"), row.getLong("total_amount"),
        row.getLong("amount_paid"), row.getLong("amount_refunded"), row.getString("currency").trim(),
        row.getString("payment_method"), row.getOffsetDateTime("created_at"));
  }
}
