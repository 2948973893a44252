package io.gpurental.gateway.platform.db;

import io.gpurental.gateway.platform.BuildInfo;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;

/** Records each node start in the audit log, so operators can see which versions ran when. */
public final class NodeStarts {
  private NodeStarts() {}

  public static Future<Void> record(Pool pool, String nodeId, BuildInfo info) {
    JsonObject after = new JsonObject()
        .put("version", info.version())
        .put("schema_version", info.schemaVersion())
        .put("mode", info.mode().id());
    return AuditLog.append(pool, "system", "node.started", nodeId, null, after);
  }
}
