package io.gpurental.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scale run's SQL as the harness sends it: the seed script for N hosts and the pgbench hold. */
class ScaleScriptsTest {
  /** The psql script becomes one statement list: its size set, its psql commands and VACUUM out. */
  @Test
  void theSeedScriptIsRunForTheGivenFleetSize(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("seed.sql");
    Files.writeString(file, "-- a fleet\n\\set ON_ERROR_STOP on\nBEGIN;\nSELECT generate_series(1, :hosts);\n"
        + "COMMIT;\nVACUUM ANALYZE;\n");
    String script = FleetSeed.script(file, 250);
    assertTrue(script.contains("generate_series(1, 250)"), script);
    assertFalse(script.contains(":hosts"), script);
    assertFalse(script.contains("\\set"), script);
    assertFalse(script.contains("VACUUM"), "VACUUM cannot run in the script's transaction: " + script);
  }

  /** The real seed script has no psql variable but :hosts, so the harness's substitution is complete. */
  @Test
  void theSeedScriptOnlyUsesTheHostsVariable() throws Exception {
    Path real = Path.of("sql/seed-fleet.sql");
    String text = Files.readString(Files.exists(real) ? real : Path.of("bench/sql/seed-fleet.sql"));
    assertEquals(Set.of("hosts"), variables(text.replaceAll("--[^\n]*", "").replaceAll("'[^']*'", "''").replaceAll("::", "")));
  }

  /**
   * pgbench reads every :name in a statement as a variable, inside string literals too (an
   * undefined one becomes an untyped parameter): the hold script names only its own variables.
   */
  @Test
  void thePgbenchHoldNamesOnlyItsOwnVariables() {
    String sql = PgBench.SCRIPT.lines().filter(line -> !line.startsWith("\\")).reduce("", (a, b) -> a + b + "\n");
    assertEquals(new TreeSet<>(Set.of("base", "client_id", "h", "n", "r1", "r2", "slot")),
        variables(sql.replace("::bigint", "")));
    assertTrue(PgBench.SCRIPT.contains("\\set h random(1, :hosts)"));
  }

  private static Set<String> variables(String text) {
    Set<String> names = new TreeSet<>();
    Matcher matcher = Pattern.compile(":([A-Za-z_][A-Za-z0-9_]*)").matcher(text);
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return names;
  }
}
