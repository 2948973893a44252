package io.gpurental.gateway.platform.db;

import io.gpurental.gateway.platform.BuildInfo;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

/** Records each node start in the audit log, so operators can see which versions ran when. */
public final class NodeStarts {
  private static final String INSERT = """
      INSERT INTO audit_log (actor, action, target, after)
      VALUES ('system', 'node.started', $1, $2)""";

  private NodeStarts() {}

  public static Future<Void> record(Pool pool, String nodeId, BuildInfo info) {
    JsonObject after = new JsonObject()
        .put("version", info.version())
        .put("schema_version", info.schemaVersion())
        .put("mode", info.mode().id());
    return pool.preparedQuery(INSERT).execute(Tuple.of(nodeId, after)).mapEmpty();
  }
}
