package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * Hosts that exist when V12 is applied get one history row each: their status since their last
 * change, so their uptime counts from then.
 */
class StatusHistoryBackfillTest {
  @Test
  void existingHostsGetTheirStatusSinceTheirLastChange() throws SQLException {
    String url = "jdbc:" + TestDatabase.newDatabaseUrl().replace("postgresql://postgres@", "postgresql://");
    String fresh = "backfill_" + ProcessHandle.current().pid() + "_" + System.nanoTime();
    try (Connection any = DriverManager.getConnection(url, "postgres", "");
        Statement statement = any.createStatement()) {
      statement.execute("CREATE DATABASE " + fresh);
    }
    String freshUrl = url.substring(0, url.lastIndexOf('/') + 1) + fresh;
    // the migration just before V12, whichever number that is once every branch is merged
    String justBefore = Arrays.stream(flyway(freshUrl, null).info().all()).map(m -> m.getVersion())
        .filter(v -> !v.isAtLeast("12")).max(Comparator.naturalOrder())
        .orElseThrow().getVersion();
    flyway(freshUrl, justBefore).migrate();
    try (Connection db = DriverManager.getConnection(freshUrl, "postgres", "");
        Statement statement = db.createStatement()) {
      statement.execute("INSERT INTO sites (id, name, region, country) VALUES ('site_b', 'B', 'eu', 'DE')");
      statement.execute("INSERT INTO hosts (id, site_id, name, status, status_changed_at) VALUES"
          + " ('host_b1', 'site_b', 'b1', 'active', '2026-11-01T08:00:00Z'),"
          + " ('host_b2', 'site_b', 'b2', 'offline', '2026-11-20T10:30:00Z')");
      flyway(freshUrl, null).migrate();

      List<String> rows = new ArrayList<>();
      try (ResultSet history = statement.executeQuery("SELECT host_id || ' ' || to_status || ' '"
          + "|| to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') || ' ' || coalesce(from_status, '-')"
          + " FROM host_status_history ORDER BY host_id")) {
        while (history.next()) {
          rows.add(history.getString(1));
        }
      }
      assertEquals(List.of("host_b1 active 2026-11-01 08:00 -", "host_b2 offline 2026-11-20 10:30 -"), rows);
    }
  }

  private static Flyway flyway(String url, String target) {
    var config = Flyway.configure().dataSource(url, "postgres", "").locations("classpath:db/migration");
    return (target == null ? config : config.target(target)).load();
  }
}
