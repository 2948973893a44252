package io.gpurental.gateway.platform.audit;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

/**
 * The one writer of {@code audit_log} (owned by platform): features append who did what to which
 * object, in the transaction of the change itself, so a change and its record commit together.
 */
public final class AuditLog {
  private static final String APPEND = """
      INSERT INTO audit_log (actor, action, target, before, after) VALUES ($1, $2, $3, $4, $5)""";

  private AuditLog() {}

  /** Appends one entry; {@code before} and {@code after} may be null. */
  public static Future<Void> append(SqlClient client, String actor, String action, String target, JsonObject before,
      JsonObject after) {
    return client.preparedQuery(APPEND).execute(Tuple.of(actor, action, target, before, after)).mapEmpty();
  }
}
