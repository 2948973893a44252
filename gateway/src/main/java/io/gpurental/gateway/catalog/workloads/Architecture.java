package io.gpurental.gateway.catalog.workloads;

/**
 * What the memory formulas need of a transformer, as its Hugging Face {@code config.json} says:
 * layers, hidden size, KV heads and head dimension (or, for multi-head latent attention, the
 * compressed KV rank and the decoupled RoPE dimension), total and active parameters.
 *
 * @param kvLoraRank null unless the model caches a compressed latent (MLA)
 * @param estimated true when the shape was estimated from the parameter count, not read from a config
 */
public record Architecture(String id, String name, double totalParamsB, double activeParamsB, int layers,
    int hiddenSize, int kvHeads, int headDim, Integer kvLoraRank, Integer ropeHeadDim, int maxContext,
    String source, boolean estimated) {

  /** The modern dense shape assumed when only a parameter count is known: hidden/layers ≈ 128, GQA with 8 KV heads of 128. */
  private static final int WIDTH_PER_LAYER = 128;

  /** Values cached per token across all layers: 2 × layers × KV heads × head dim, or layers × (rank + RoPE dim) for MLA. */
  public long kvValuesPerToken() {
    if (kvLoraRank != null) {
      return (long) layers * (kvLoraRank + ropeHeadDim);
    }
    return 2L * layers * kvHeads * headDim;
  }

  public boolean mla() {
    return kvLoraRank != null;
  }

  /**
   * A dense model of {@code paramsB} billion parameters with the usual proportions: parameters ≈
   * 12 × layers × hidden², hidden = 128 × layers (Llama 2 13B: 40 × 5120), hidden rounded to a
   * multiple of 128; 8 KV heads of 128 (grouped-query attention, as Llama 3 and Qwen2.5).
   */
  public static Architecture dense(double paramsB) {
    double hidden = Math.cbrt(paramsB * 1e9 * WIDTH_PER_LAYER / 12);
    int layers = Math.max(1, (int) Math.round(hidden / WIDTH_PER_LAYER));
    return new Architecture("custom", format(paramsB) + "B dense model", paramsB, paramsB, layers,
        layers * WIDTH_PER_LAYER, 8, 128, null, null, 1_048_576,
        "estimated shape: parameters ≈ 12 × layers × hidden², hidden = 128 × layers, 8 KV heads × 128", true);
  }

  private static String format(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }
}
