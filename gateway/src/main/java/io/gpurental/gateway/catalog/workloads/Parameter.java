package io.gpurental.gateway.catalog.workloads;

import java.util.List;

/**
 * One parameter of a workload preset: its name in the query string, its type ({@code integer},
 * {@code number} or {@code string}), unit, default (null when it has none) and what it allows (a
 * range, or a list of values).
 */
public record Parameter(String name, String type, String unit, Object defaultValue, Double minimum, Double maximum,
    List<String> values, String description) {

  static Parameter integer(String name, String unit, Integer defaultValue, int minimum, int maximum, String description) {
    return new Parameter(name, "integer", unit, defaultValue, (double) minimum, (double) maximum, null, description);
  }

  static Parameter number(String name, String unit, Double defaultValue, double minimum, double maximum,
      String description) {
    return new Parameter(name, "number", unit, defaultValue, minimum, maximum, null, description);
  }

  static Parameter choice(String name, String defaultValue, List<String> values, String description) {
    return new Parameter(name, "string", null, defaultValue, null, null, values, description);
  }
}
