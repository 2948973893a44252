package io.gpurental.gateway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md lists every setting of conf/gateway.yaml with its variable and its
 * default, and nothing that is not a setting: a setting added, renamed or given a new default
 * without its row fails here.
 */
class ConfigurationDocTest {
  private static final Path CONF = Path.of("..", "conf", "gateway.yaml");
  private static final Path DOC = Path.of("..", "docs", "configuration.md");

  @Test
  void everySettingHasItsRowWithVariableAndDefault() throws IOException {
    String doc = Files.readString(DOC);
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, String> setting : settings().entrySet()) {
      String path = setting.getKey();
      String row = "| `" + path + "` | `GATEWAY_" + path.toUpperCase(Locale.ROOT).replace('.', '_') + "` | `"
          + setting.getValue() + "` |";
      if (!doc.contains(row)) {
        missing.add(row);
      }
    }
    assertTrue(missing.isEmpty(), "docs/configuration.md lacks (or has another default in) these rows:\n"
        + String.join("\n", missing));
  }

  @Test
  void everyRowIsASetting() throws IOException {
    Map<String, String> settings = settings();
    List<String> documented = Files.readAllLines(DOC).stream().filter(line -> line.startsWith("| `"))
        .map(line -> line.substring(3, line.indexOf('`', 3))).toList();
    assertEquals(settings.keySet().stream().sorted().toList(), documented.stream().sorted().toList());
  }

  private static Map<String, String> settings() throws IOException {
    Object tree = new ObjectMapper(new YAMLFactory()).readValue(CONF.toFile(), Object.class);
    Map<String, String> leaves = new LinkedHashMap<>();
    flatten("", tree, leaves);
    return leaves;
  }

  private static void flatten(String prefix, Object node, Map<String, String> leaves) {
    if (node instanceof Map<?, ?> map) {
      map.forEach((key, value) -> flatten(prefix.isEmpty() ? key.toString() : prefix + "." + key, value, leaves));
    } else if (node instanceof List<?> list) {
      leaves.put(prefix, list.isEmpty() ? "(empty)" : list.stream().map(String::valueOf).collect(Collectors.joining(", ")));
    } else {
      leaves.put(prefix, node == null || node.toString().isEmpty() ? "(empty)" : node.toString());
    }
  }
}
