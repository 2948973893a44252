package io.gpurental.gateway.catalog;

import io.gpurental.gateway.catalog.workloads.Architecture;
import io.gpurental.gateway.catalog.workloads.Architectures;
import io.gpurental.gateway.catalog.workloads.Fit;
import io.gpurental.gateway.catalog.workloads.Need;
import io.gpurental.gateway.catalog.workloads.Parameter;
import io.gpurental.gateway.catalog.workloads.Preset;
import io.gpurental.gateway.catalog.workloads.Workloads;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** The API shape of workload presets, named architectures, needs and fits. */
final class WorkloadJson {
  private WorkloadJson() {}

  /** {@code GET /workloads}: every preset, and the named architectures the LLM presets take. */
  static JsonObject catalog() {
    JsonArray presets = new JsonArray();
    Workloads.presets().forEach(preset -> presets.add(preset(preset)));
    JsonArray architectures = new JsonArray();
    Architectures.ALL.forEach(model -> architectures.add(architecture(model)));
    return new JsonObject().put("data", presets).put("architectures", architectures).put("next_cursor", null);
  }

  static JsonObject preset(Preset preset) {
    JsonArray parameters = new JsonArray();
    preset.parameters().forEach(parameter -> parameters.add(parameter(parameter)));
    JsonArray sources = new JsonArray();
    preset.sources().forEach(source -> sources.add(new JsonObject().put("title", source.title()).put("url", source.url())));
    return new JsonObject().put("id", preset.id()).put("name", preset.name()).put("summary", preset.summary())
        .put("parameters", parameters).put("formula", preset.formula()).put("sources", sources);
  }

  private static JsonObject parameter(Parameter parameter) {
    JsonObject json = new JsonObject().put("name", parameter.name()).put("type", parameter.type())
        .put("unit", parameter.unit()).put("description", parameter.description());
    Object fallback = parameter.defaultValue();
    json.put("default", fallback instanceof Number number && "integer".equals(parameter.type())
        ? (Object) number.longValue() : fallback);
    if (parameter.values() != null) {
      json.put("values", new JsonArray(parameter.values()));
    } else {
      json.put("minimum", plain(parameter.minimum())).put("maximum", plain(parameter.maximum()));
    }
    return json;
  }

  private static JsonObject architecture(Architecture model) {
    return new JsonObject().put("id", model.id()).put("name", model.name())
        .put("total_params_b", model.totalParamsB()).put("active_params_b", model.activeParamsB())
        .put("layers", model.layers()).put("hidden_size", model.hiddenSize())
        .put("kv_heads", model.mla() ? null : model.kvHeads()).put("head_dim", model.mla() ? null : model.headDim())
        .put("kv_lora_rank", model.kvLoraRank()).put("qk_rope_head_dim", model.ropeHeadDim())
        .put("kv_values_per_token", model.kvValuesPerToken()).put("max_context", model.maxContext())
        .put("source", model.source());
  }

  /** The search's workload: the preset, its parameters with defaults, what it needs, and, when nothing fits, what it would need. */
  static JsonObject search(Workloads.Workload workload, String unmet) {
    return new JsonObject().put("id", workload.preset().id()).put("name", workload.preset().name())
        .put("parameters", parameters(workload))
        .put("need", need(workload.need())).put("unmet", unmet);
  }

  private static JsonObject parameters(Workloads.Workload workload) {
    JsonObject values = new JsonObject();
    workload.preset().parameters().forEach(parameter -> {
      Object value = workload.args().values().get(parameter.name());
      values.put(parameter.name(), value instanceof Number number && "integer".equals(parameter.type())
          ? (Object) number.longValue() : value);
    });
    return values;
  }

  static JsonObject need(Need need) {
    JsonArray parts = new JsonArray();
    need.parts().forEach(part -> parts.add(new JsonObject().put("name", part.name()).put("gb", round(part.gb()))));
    return new JsonObject().put("total_vram_gb", round(need.totalGb()))
        .put("min_vram_per_gpu_gb", round(need.minPerGpuGb())).put("splittable", need.splittable())
        .put("fast_interconnect_for_multi_gpu", need.fastInterconnectForMultiGpu())
        .put("ram_gb", round(need.ramGb())).put("disk_gb", round(need.diskGb())).put("parts", parts);
  }

  /** An offer's fit: the smallest count that holds the workload, or why none does. */
  static JsonObject fit(Fit fit, Need need, String unmet) {
    JsonObject json = new JsonObject().put("fits", fit != null);
    if (fit != null) {
      json.put("gpu_count", fit.gpuCount()).put("vram_gb", fit.vramGb()).put("sentence", fit.sentence());
    } else {
      json.put("gpu_count", null).put("vram_gb", null).put("sentence", unmet);
    }
    return json.put("need", need(need));
  }

  private static double round(double gb) {
    return BigDecimal.valueOf(gb).setScale(2, RoundingMode.HALF_UP).doubleValue();
  }

  private static Number plain(double value) {
    return value == Math.rint(value) ? (Number) (long) value : value;
  }
}
