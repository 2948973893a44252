package io.gpurental.gateway.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A feature's SQL runs only in its repositories ({@code *Repository}, and the idempotency store,
 * which is its own small one), so the logic reads top-down and a statement has one home.
 */
class SqlInRepositoriesTest {
  /** The features whose SQL has moved into repositories; others join as theirs does. */
  private static final Set<String> FEATURES = Set.of("reservations", "payments");
  private static final Set<String> STORES = Set.of("IdempotencyKeys.java");
  private static final Pattern RUNS_SQL = Pattern.compile("\\.(?:preparedQuery|query)\\(");

  @Test
  void onlyRepositoriesRunSql() {
    List<String> outside = SourceTree.javaFiles().stream()
        .filter(file -> FEATURES.contains(SourceTree.packageOf(file)))
        .filter(file -> !isRepository(file) && RUNS_SQL.matcher(SourceTree.read(file)).find())
        .map(file -> SourceTree.ROOT.relativize(file).toString())
        .sorted().toList();
    assertEquals(List.of(), outside, "classes that run SQL but are not their feature's repository");
  }

  private static boolean isRepository(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith("Repository.java") || STORES.contains(name);
  }
}
