package io.gpurental.gateway.catalog.workloads;

import io.gpurental.gateway.platform.errors.Invalid;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The workload presets, and how a preset's query parameters become a validated {@link Workload}. */
public final class Workloads {
  private static final List<Family> FAMILIES = List.of(new LlmInference(), new LlmFinetune(), new ImageGeneration(),
      new VideoGeneration(), new Rendering(), new BatchData());
  private static final List<Preset> PRESETS = FAMILIES.stream().map(Family::preset).toList();

  /** Every parameter name some preset takes (the query parameters a workload search may carry). */
  public static final Set<String> PARAMETER_NAMES = parameterNames();

  private Workloads() {}

  /** A preset with its validated parameters and what it needs. */
  public record Workload(Preset preset, Args args, Need need) {}

  public static List<Preset> presets() {
    return PRESETS;
  }

  /**
   * The workload {@code presetId} with the {@code given} parameters (raw query values by name);
   * 400 naming each parameter that is unknown to the preset, malformed or out of range.
   */
  public static Workload resolve(String presetId, Map<String, String> given) {
    int index = PRESETS.stream().map(Preset::id).toList().indexOf(presetId);
    if (index < 0) {
      throw new Invalid("There is no workload '" + presetId + "'.", List.of(new Invalid.FieldError("#/workload",
          "one of " + String.join(", ", PRESETS.stream().map(Preset::id).toList()))));
    }
    Family family = FAMILIES.get(index);
    Preset preset = PRESETS.get(index);
    List<Invalid.FieldError> errors = new ArrayList<>();
    Map<String, Object> values = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : new java.util.TreeMap<>(given).entrySet()) {
      Optional<Parameter> parameter = preset.parameter(entry.getKey());
      if (parameter.isEmpty()) {
        errors.add(new Invalid.FieldError("#/" + entry.getKey(), "not a parameter of workload " + presetId + " (it takes "
            + String.join(", ", preset.parameters().stream().map(Parameter::name).toList()) + ")"));
      } else {
        parse(parameter.get(), entry.getValue().trim()).ifPresentOrElse(value -> values.put(entry.getKey(), value),
            () -> errors.add(new Invalid.FieldError("#/" + entry.getKey(), allowed(parameter.get()))));
      }
    }
    if (errors.isEmpty()) {
      preset.parameters().forEach(parameter -> values.putIfAbsent(parameter.name(), parameter.defaultValue()));
      if (values.get("params_b") != null && !given.containsKey("model")) {
        values.put("model", null); // a size instead of a name: the default model does not apply
      }
      Args args = new Args(values, new HashSet<>(given.keySet()));
      family.problems(args).forEach(problem -> errors.add(new Invalid.FieldError("#/" + problem[0], problem[1])));
      if (errors.isEmpty()) {
        return new Workload(preset, args, family.need(args));
      }
    }
    throw new Invalid("Workload " + presetId + ": " + String.join("; ", errors.stream()
        .map(error -> error.pointer().substring(2) + " " + error.detail()).toList()) + ".", errors);
  }

  /** The value as the parameter's type, or empty when it is malformed or not allowed. */
  static Optional<Object> parse(Parameter parameter, String raw) {
    if ("string".equals(parameter.type())) {
      return parameter.values().stream().filter(value -> value.equalsIgnoreCase(raw)).findFirst().map(Object.class::cast);
    }
    try {
      BigDecimal number = new BigDecimal(raw);
      if ("integer".equals(parameter.type()) && number.stripTrailingZeros().scale() > 0) {
        return Optional.empty();
      }
      double value = number.doubleValue();
      return value < parameter.minimum() || value > parameter.maximum() ? Optional.empty() : Optional.of(value);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static String allowed(Parameter parameter) {
    if ("string".equals(parameter.type())) {
      return "must be one of " + String.join(", ", parameter.values());
    }
    return "must be " + ("integer".equals(parameter.type()) ? "a whole number" : "a number") + " from "
        + plain(parameter.minimum()) + " to " + plain(parameter.maximum());
  }

  private static String plain(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  private static Set<String> parameterNames() {
    Set<String> names = new TreeSet<>();
    PRESETS.forEach(preset -> preset.parameters().forEach(parameter -> names.add(parameter.name())));
    return java.util.Collections.unmodifiableSet(names);
  }
}
