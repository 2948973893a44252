package io.gpurental.gateway.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each table has one owner (its comment, from the migrations, says which feature); a feature's
 * SQL names only its own tables and the {@code *_view}s others publish for it.
 */
class TableOwnershipTest {
  private static final Pattern TABLE_IN_SQL = Pattern.compile(
      "\\b(?:FROM|JOIN|UPDATE|INSERT INTO|DELETE FROM|TABLE)\\s+([a-z_]+(?:\\.[a-z_]+)?)\\b");
  private static final Pattern OWNER = Pattern.compile("owner: (\\w+)");

  @Test
  void everyTableAndViewNamesItsOwner() throws SQLException {
    List<String> ownerless = new ArrayList<>();
    owners().forEach((relation, owner) -> {
      if (owner == null) {
        ownerless.add(relation);
      }
    });
    assertEquals(List.of(), ownerless, "tables and views without an 'owner: …' comment");
  }

  @Test
  void aFeatureNamesOnlyItsOwnTablesAndPublishedViews() throws SQLException {
    Map<String, String> owners = owners();
    Map<String, TreeSet<String>> wrong = new TreeMap<>();
    for (Path file : SourceTree.javaFiles()) {
      String feature = SourceTree.packageOf(file);
      Matcher names = TABLE_IN_SQL.matcher(SourceTree.read(file));
      while (names.find()) {
        String relation = names.group(1);
        String owner = owners.get(relation);
        boolean published = relation.endsWith("_view");
        if (owner != null && !owner.equals(feature) && !published) {
          wrong.computeIfAbsent(feature + " names " + relation + " (owner: " + owner + ")", k -> new TreeSet<>())
              .add(file.getFileName().toString());
        }
      }
    }
    List<String> found = new ArrayList<>();
    wrong.forEach((what, files) -> found.add(what + " in " + files));
    assertEquals(List.of(), found, "SQL that names another feature's table");
  }

  /** Every table and view of the migrated schema, with the owner its comment names (null: none). */
  private static Map<String, String> owners() throws SQLException {
    Map<String, String> owners = new TreeMap<>();
    String url = "jdbc:" + TestDatabase.newDatabaseUrl().replace("postgresql://postgres@", "postgresql://");
    try (Connection connection = DriverManager.getConnection(url, "postgres", "");
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("""
            SELECT CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END,
                   obj_description(c.oid, 'pg_class')
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'v') AND n.nspname IN ('public', 'sandbox_stripe')
              AND c.relname NOT IN ('flyway_schema_history')""")) {
      while (rows.next()) {
        Matcher owner = OWNER.matcher(rows.getString(2) == null ? "" : rows.getString(2));
        owners.put(rows.getString(1), owner.find() ? owner.group(1) : null);
      }
    }
    return owners;
  }
}
