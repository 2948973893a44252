package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.TestGateway;
import io.vertx.sqlclient.Row;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With no db.url the gateway runs embedded PostgreSQL (on any free port) whose data survives a restart. */
class RestartTest {
  @TempDir
  Path dataDir;

  @Test
  void rowWrittenBeforeStopIsThereAfterRestart() {
    Map<String, String> settings = TestGateway.settings();
    settings.remove("GATEWAY_DB_URL");
    settings.put("GATEWAY_DB_EMBEDDED_DATA_DIR", dataDir.toString());

    try (TestGateway first = TestGateway.start(settings)) {
      assertEquals(200, first.get("/health/ready").statusCode());
      first.sql("INSERT INTO audit_log (actor, action, target) VALUES ('test', 'restart.check', 'row-1')");
      Row durability = first.sql("SELECT current_setting('fsync'), current_setting('synchronous_commit')")
          .iterator().next();
      assertEquals("on", durability.getString(0), "fsync");
      assertEquals("on", durability.getString(1), "synchronous_commit");
    }

    try (TestGateway second = TestGateway.start(settings)) {
      assertEquals(200, second.get("/health/ready").statusCode());
      Row row = second.sql("SELECT actor, target FROM audit_log WHERE action = 'restart.check'").iterator().next();
      assertEquals("row-1", row.getString("target"));
      long starts = second.sql("SELECT count(*) FROM audit_log WHERE action = 'node.started'").iterator().next().getLong(0);
      assertEquals(2, starts, "both starts are recorded");
    }
  }
}
