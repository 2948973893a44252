package io.gpurental.gateway.catalog.workloads;

import java.util.List;
import java.util.Optional;

/**
 * A kind of work a renter may start from: its parameters, the formula that turns them into a
 * {@link Need}, in words, and the sources of its figures.
 */
public record Preset(String id, String name, String summary, List<Parameter> parameters, String formula,
    List<Source> sources) {

  /** Where a figure comes from. */
  public record Source(String title, String url) {}

  public Optional<Parameter> parameter(String name) {
    return parameters.stream().filter(parameter -> parameter.name().equals(name)).findFirst();
  }
}
