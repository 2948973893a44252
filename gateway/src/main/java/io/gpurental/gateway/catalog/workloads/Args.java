package io.gpurental.gateway.catalog.workloads;

import java.util.Map;
import java.util.Set;

/**
 * A preset's parameters after validation, defaults filled in: numbers as {@code Double}, choices
 * as {@code String}; {@code given} names those the caller set.
 */
public record Args(Map<String, Object> values, Set<String> given) {
  public String text(String name) {
    Object value = values.get(name);
    return value == null ? null : value.toString();
  }

  public boolean has(String name) {
    return values.get(name) != null;
  }

  public boolean given(String name) {
    return given.contains(name);
  }

  public double number(String name) {
    return ((Number) values.get(name)).doubleValue();
  }

  public int integer(String name) {
    return (int) Math.round(number(name));
  }
}
