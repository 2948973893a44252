package io.gpurental.gateway.catalog.workloads;

import java.util.List;

/** A formula family: one preset, and how its parameters become a {@link Need}. */
interface Family {
  Preset preset();

  /** Cross-parameter problems (parameter name → what is wrong); each value is already in range. */
  default List<String[]> problems(Args args) {
    return List.of();
  }

  Need need(Args args);
}
