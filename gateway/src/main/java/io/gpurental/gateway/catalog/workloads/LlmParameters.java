package io.gpurental.gateway.catalog.workloads;

import java.util.ArrayList;
import java.util.List;

/** The parameters the LLM presets share: a named architecture or a parameter count. */
final class LlmParameters {
  static final String DEFAULT_MODEL = "llama-3.1-8b";

  private LlmParameters() {}

  static Parameter model() {
    return Parameter.choice("model", DEFAULT_MODEL, Architectures.ids(),
        "A named architecture (its config gives layers, KV heads, head dim); ignored when params_b is given.");
  }

  static Parameter paramsB() {
    return Parameter.number("params_b", "billion parameters", null, 0.1, 2000,
        "Any dense model by its size instead of a named one; its shape is estimated.");
  }

  /** The named architecture, or a dense shape estimated from {@code params_b}. */
  static Architecture architecture(Args args) {
    if (args.has("params_b")) {
      return Architecture.dense(args.number("params_b"));
    }
    return Architectures.byId(args.text("model")).orElseThrow();
  }

  /** model and params_b together are ambiguous; a context longer than the model's is refused. */
  static List<String[]> problems(Args args, String contextParameter) {
    List<String[]> problems = new ArrayList<>();
    if (args.has("params_b") && args.given("model")) {
      problems.add(new String[] {"params_b", "give model or params_b, not both"});
    }
    Architecture model = architecture(args);
    if (args.integer(contextParameter) > model.maxContext()) {
      problems.add(new String[] {contextParameter, model.name() + " takes at most " + model.maxContext() + " tokens"});
    }
    return problems;
  }

  static List<Preset.Source> sources() {
    List<Preset.Source> sources = new ArrayList<>();
    for (Architecture model : Architectures.ALL) {
      String url = model.source().split(" ")[0].replace(";", "");
      sources.add(new Preset.Source(model.name() + " config.json", url));
    }
    sources.add(new Preset.Source("DeepSeek-V3 Technical Report (multi-head latent attention)",
        "https://arxiv.org/abs/2412.19437"));
    sources.add(new Preset.Source("Efficient Memory Management for LLM Serving with PagedAttention (vLLM): KV cache"
        + " size per token", "https://arxiv.org/abs/2309.06180"));
    return sources;
  }
}
