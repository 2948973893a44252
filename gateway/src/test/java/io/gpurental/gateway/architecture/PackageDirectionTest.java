package io.gpurental.gateway.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The direction of the house (DESIGN.md, "Features and their seams"): each top-level package may
 * import only the packages below it, so no two packages import each other and there is no cycle.
 */
class PackageDirectionTest {
  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.gpurental\\.gateway\\.(\\w+)\\.",
      Pattern.MULTILINE);
  /** What each package may use; boot ({@code ""}: Gateway.java, Main.java) wires them all. */
  private static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
      Map.entry("config", Set.of()),
      Map.entry("platform", Set.of("config")),
      Map.entry("auth", Set.of("platform", "config")),
      Map.entry("pricing", Set.of("platform", "config")),
      Map.entry("payments", Set.of("platform", "config", "auth")),
      Map.entry("fleet", Set.of("platform", "config", "auth")),
      Map.entry("catalog", Set.of("platform", "config", "pricing", "fleet")),
      Map.entry("reservations", Set.of("platform", "config", "auth", "catalog", "pricing", "payments", "fleet")),
      Map.entry("operator", Set.of("platform", "config", "auth", "pricing", "catalog", "fleet", "payments", "reservations")),
      // the MCP server sits on top beside the operator, over the others' services
      Map.entry("agents", Set.of("platform", "config", "auth", "pricing", "catalog", "payments", "reservations")),
      // the simulated hosts implement the fleet's port until host agents replace them over HTTP
      Map.entry("sandbox", Set.of("platform", "config", "fleet")));

  @Test
  void everyPackageImportsOnlyThePackagesBelowIt() {
    Map<String, Set<String>> wrong = new TreeMap<>();
    for (Path file : SourceTree.javaFiles()) {
      String from = SourceTree.packageOf(file);
      if (from.isEmpty()) {
        continue;
      }
      Matcher imports = IMPORT.matcher(SourceTree.read(file));
      while (imports.find()) {
        String to = imports.group(1);
        if (!to.equals(from) && !MAY_USE.getOrDefault(from, Set.of()).contains(to)) {
          wrong.computeIfAbsent(from + " -> " + to, k -> new TreeSet<>()).add(file.getFileName().toString());
        }
      }
    }
    List<String> found = new ArrayList<>();
    wrong.forEach((edge, files) -> found.add(edge + " in " + files));
    assertEquals(List.of(), found, "imports against the direction of the house");
  }
}
