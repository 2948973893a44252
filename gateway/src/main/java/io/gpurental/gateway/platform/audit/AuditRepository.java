package io.gpurental.gateway.platform.audit;

import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/** Reads {@code audit_log} (owned by platform) for the operator: filtered, newest first, by keyset. */
public final class AuditRepository {
  /**
   * $1 actor, $2 action (exact, or a prefix ending in '.'), $3 target, $4 from, $5 to (exclusive),
   * $6/$7 the position after which the page starts, $8 limit.
   */
  private static final String PAGE = """
      SELECT id, at, actor, action, target, before, after FROM audit_log
      WHERE ($1::text IS NULL OR actor = $1)
        AND ($2::text IS NULL OR action = $2 OR (right($2, 1) = '.' AND starts_with(action, $2)))
        AND ($3::text IS NULL OR target = $3)
        AND ($4::timestamptz IS NULL OR at >= $4)
        AND ($5::timestamptz IS NULL OR at < $5)
        AND ($6::timestamptz IS NULL OR (at, id) < ($6, $7))
      ORDER BY at DESC, id DESC LIMIT $8""";

  private AuditRepository() {}

  /** What to look for; null fields do not filter. */
  public record Filter(String actor, String action, String target, OffsetDateTime from, OffsetDateTime to) {}

  /** One audit entry. */
  public record Entry(long id, OffsetDateTime at, String actor, String action, String target, JsonObject before,
      JsonObject after) {}

  /** A page and the cursor of the next one (null at the end). */
  public record Result(List<Entry> entries, String nextCursor) {}

  public static Future<Result> page(SqlClient client, Filter filter, String cursor, int limit) {
    Page.Position after = cursor == null ? null : Page.decode(cursor);
    Long afterId = after == null ? null : id(after.id());
    Tuple params = Tuple.from(new Object[] {filter.actor(), filter.action(), filter.target(), filter.from(),
        filter.to(), after == null ? null : after.createdAt(), afterId, limit + 1});
    return client.preparedQuery(PAGE).execute(params).map(rows -> {
      List<Entry> entries = new ArrayList<>();
      rows.forEach(row -> entries.add(new Entry(row.getLong("id"), row.getOffsetDateTime("at"), row.getString("actor"),
          row.getString("action"), row.getString("target"), (JsonObject) row.getValue("before"),
          (JsonObject) row.getValue("after"))));
      if (entries.size() <= limit) {
        return new Result(entries, null);
      }
      Entry last = entries.get(limit - 1);
      return new Result(List.copyOf(entries.subList(0, limit)), Page.encode(last.at(), String.valueOf(last.id())));
    });
  }

  private static long id(String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new Invalid("cursor is not one this API returned", List.of(new Invalid.FieldError("#/cursor",
          "use the next_cursor of the previous page")));
    }
  }
}
