package io.gpurental.gateway.catalog.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Serving a large language model: weights = parameters × bytes per parameter; KV cache = values
 * cached per token × bytes × context × concurrent sequences; plus the runtime overhead. Split
 * over GPUs by tensor or pipeline parallelism, which works over PCIe too.
 */
final class LlmInference implements Family {
  static final String ID = "llm-inference";

  @Override
  public Preset preset() {
    return new Preset(ID, "LLM inference", "Serve a language model: weights plus the KV cache of the concurrent sequences.",
        List.of(LlmParameters.model(), LlmParameters.paramsB(),
            Parameter.choice("precision", "bf16", Precision.labels(), "Weight precision: bf16 2, fp8 1, int4 ≈0.5 bytes per parameter."),
            Parameter.integer("context", "tokens", 8192, 128, 1_048_576, "Tokens per sequence (prompt plus output)."),
            Parameter.integer("sequences", "sequences", 1, 1, 1024, "Sequences served at once.")),
        "weights = parameters × bytes per parameter (bf16 2, fp8 1, int4 ≈0.5); KV cache = 2 × layers × KV heads"
            + " × head dim × bytes × context × sequences (bytes: 2, or 1 under fp8; DeepSeek-V3's multi-head latent"
            + " attention caches 512 + 64 values per layer per token: layers × 576 × bytes × context × sequences);"
            + " total = (weights + KV cache) + 10 % runtime overhead (at least 1 GB). Splits over GPUs (tensor or"
            + " pipeline parallel). Host RAM ≥ the weights (at least 16 GB); disk = weights + 20 GB.",
        LlmParameters.sources());
  }

  @Override
  public List<String[]> problems(Args args) {
    return LlmParameters.problems(args, "context");
  }

  @Override
  public Need need(Args args) {
    Architecture model = LlmParameters.architecture(args);
    Precision precision = Precision.of(args.text("precision"));
    int context = args.integer("context");
    int sequences = args.integer("sequences");
    double weights = weightsGb(model.totalParamsB(), precision);
    double cache = kvCacheGb(model, precision, context, sequences);
    List<Need.Part> parts = new ArrayList<>(List.of(new Need.Part("weights", weights), new Need.Part("kv_cache", cache)));
    String forWhat = Need.gb(weights) + " of weights and " + Need.gb(cache) + " of KV cache at " + contextLabel(context)
        + " context" + (sequences > 1 ? " × " + sequences + " sequences" : "") + " (" + precision.label() + ")";
    return Need.of(parts, true, false, Math.max(16, weights), weights + 20, forWhat);
  }

  /** Parameters (billions) × bytes per parameter, in GB. */
  static double weightsGb(double paramsB, Precision precision) {
    return paramsB * precision.bytesPerParameter();
  }

  /** Bytes the KV cache holds per token. */
  static long kvBytesPerToken(Architecture model, Precision precision) {
    return model.kvValuesPerToken() * precision.kvCacheBytes();
  }

  static double kvCacheGb(Architecture model, Precision precision, int context, int sequences) {
    return (double) kvBytesPerToken(model, precision) * context * sequences / 1e9;
  }

  /** "8k", "128k" for multiples of 1024 tokens, else the token count. */
  static String contextLabel(int tokens) {
    return tokens % 1024 == 0 ? tokens / 1024 + "k" : String.format(Locale.ROOT, "%,d-token", tokens);
  }
}
