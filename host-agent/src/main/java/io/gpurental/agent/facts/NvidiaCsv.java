package io.gpurental.agent.facts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses nvidia-smi's {@code --format=csv,noheader[,nounits]} output of a selective query. Each
 * line must hold exactly the fields that were asked for, in the order asked: a line with another
 * column count is refused rather than guessed at.
 */
public final class NvidiaCsv {
  private NvidiaCsv() {
  }

  /** One map per output line (GPU), field name to raw value; {@code null} where nvidia-smi has none. */
  public static List<Map<String, String>> parse(List<String> fields, String output) {
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : output.split("\\R")) {
      if (line.isBlank()) {
        continue;
      }
      // no value of the fields asked for contains a comma (numbers, UUIDs, model names)
      String[] cells = line.split(",", -1);
      if (cells.length != fields.size()) {
        throw new IllegalArgumentException("nvidia-smi printed " + cells.length + " values where "
            + fields.size() + " fields were asked for: " + line.strip());
      }
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < cells.length; i++) {
        row.put(fields.get(i), present(cells[i].strip()));
      }
      rows.add(row);
    }
    return rows;
  }

  /** {@code null} for the markers nvidia-smi prints instead of a value ({@code [N/A]}, {@code [Not Supported]}, …). */
  static String present(String value) {
    if (value.isEmpty() || value.equals("N/A") || (value.startsWith("[") && value.endsWith("]"))) {
      return null;
    }
    return value;
  }

  /** The leading number of a value with or without its unit ({@code "69.85 W"}, {@code "0 %"}, {@code "81559"}). */
  public static Double number(String value) {
    if (value == null) {
      return null;
    }
    String first = value.split("\\s+")[0];
    try {
      return Double.valueOf(first);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Whole numbers (MiB, %, °C, counts). */
  public static Long whole(String value) {
    Double n = number(value);
    return n == null ? null : Math.round(n);
  }

  /** Yes/No or 1/0 flags (remapped_rows.failure prints either, depending on the driver). */
  public static Boolean flag(String value) {
    if (value == null) {
      return null;
    }
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "yes", "1", "true", "enabled" -> true;
      case "no", "0", "false", "disabled" -> false;
      default -> null;
    };
  }
}
