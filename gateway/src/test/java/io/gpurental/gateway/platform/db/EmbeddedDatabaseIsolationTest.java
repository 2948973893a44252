package io.gpurental.gateway.platform.db;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.FreePorts;
import io.gpurental.gateway.testing.TestGateway;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A gateway's embedded PostgreSQL is provably its own: never another installation's server. */
class EmbeddedDatabaseIsolationTest {
  @TempDir
  Path otherInstall;
  @TempDir
  Path thisInstall;

  @Test
  void aDataDirectoryInUseByARunningServerIsAStartErrorNamingIt() throws Exception {
    try (EmbeddedDatabase running = EmbeddedDatabase.start(otherInstall, 0)) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> TestGateway.start(embeddedSettings(otherInstall, FreePorts.next())).close());
      assertTrue(e.getMessage().contains(otherInstall.toRealPath().toString()), e.getMessage());
      assertTrue(e.getMessage().contains("in use"), e.getMessage());
    }
  }

  @Test
  void aServerOfAnotherDataDirectoryOnTheConfiguredPortIsNeverUsed() throws Exception {
    try (EmbeddedDatabase other = EmbeddedDatabase.start(otherInstall, 0)) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> TestGateway.start(embeddedSettings(thisInstall, other.port())).close());
      assertTrue(e.getMessage().contains("data directory"), e.getMessage());
      assertFalse(migrated(other.port()), "the other installation's database was migrated by this gateway");
    }
  }

  private static Map<String, String> embeddedSettings(Path dataDir, int port) {
    Map<String, String> settings = TestGateway.settings();
    settings.remove("GATEWAY_DB_URL");
    settings.put("GATEWAY_DB_EMBEDDED_DATA_DIR", dataDir.toString());
    settings.put("GATEWAY_DB_EMBEDDED_PORT", Integer.toString(port));
    return settings;
  }

  private static boolean migrated(int port) throws Exception {
    DatabaseTarget target = DatabaseTarget.embedded(port);
    try (Connection connection = DriverManager.getConnection(target.jdbcUrl(), target.user(), target.password());
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT to_regclass('flyway_schema_history') IS NOT NULL")) {
      row.next();
      return row.getBoolean(1);
    }
  }
}
