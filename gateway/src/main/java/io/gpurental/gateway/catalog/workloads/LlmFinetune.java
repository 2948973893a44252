package io.gpurental.gateway.catalog.workloads;

import java.util.List;
import java.util.Locale;

/**
 * Fine-tuning a large language model. Full: mixed-precision AdamW keeps ≈18 bytes per parameter
 * (fp32 and bf16 weights 6, gradients 4, two moments 8). LoRA: frozen weights plus low-rank
 * adapters on every linear layer, trained with bf16 weights and gradients and 32-bit AdamW states
 * (12 bytes per adapter parameter). QLoRA: the same over 4-bit frozen weights. Activations with
 * gradient checkpointing. Multi-GPU training needs a fast interconnect.
 */
final class LlmFinetune implements Family {
  static final String ID = "llm-finetune";
  static final double FULL_BYTES_PER_PARAMETER = 18;
  static final double ADAPTER_BYTES_PER_PARAMETER = 12;
  /** Inputs plus outputs of a Llama-style block's linear layers (q, k, v, o, gate, up, down) ≈ 20 × hidden. */
  static final int ADAPTED_WIDTH_PER_HIDDEN = 20;
  /** Bytes per token per hidden unit of the one layer being recomputed (Korthikanti et al.: 34, flash attention). */
  static final int RECOMPUTED_LAYER_BYTES = 34;

  @Override
  public Preset preset() {
    return new Preset(ID, "LLM fine-tuning", "Train a language model further: full, LoRA or QLoRA.",
        List.of(LlmParameters.model(), LlmParameters.paramsB(),
            Parameter.choice("method", "lora", List.of("full", "lora", "qlora"), "Full fine-tuning, LoRA, or QLoRA."),
            Parameter.choice("precision", null, Precision.labels(),
                "Frozen weights' precision: full needs bf16 (mixed precision), lora bf16 or fp8, qlora int4;"
                    + " defaults to the method's."),
            Parameter.integer("sequence_length", "tokens", 2048, 128, 131_072, "Tokens per training sequence."),
            Parameter.integer("batch", "sequences", 1, 1, 512, "Sequences per step on the GPUs (micro-batch)."),
            Parameter.integer("lora_rank", null, 16, 1, 1024, "Adapter rank r (lora and qlora).")),
        "full = parameters × 18 bytes (mixed-precision AdamW: fp32 + bf16 weights 6, gradients 4, moments 8);"
            + " lora = parameters × bytes (bf16 2, fp8 1) + adapters; qlora = parameters × 0.5 + adapters;"
            + " adapters = rank × layers × 20 × hidden parameters (every linear layer) × 12 bytes (bf16 weights and"
            + " gradients, 32-bit AdamW moments); activations (gradient checkpointing) = sequence_length × batch ×"
            + " hidden × (2 × layers + 34) bytes; total = all of it + 10 % runtime overhead (at least 1 GB)."
            + " Shards over GPUs (FSDP / ZeRO), but more than one GPU needs a fast interconnect (NVLink)."
            + " Host RAM ≥ the frozen weights (at least 16 GB); disk = the bf16 checkpoint + one training"
            + " checkpoint (12 bytes per trained parameter) + 20 GB.",
        List.of(new Preset.Source("Hugging Face Transformers, Model training anatomy (18 bytes per parameter)",
                "https://huggingface.co/docs/transformers/model_memory_anatomy"),
            new Preset.Source("LoRA: Low-Rank Adaptation of Large Language Models", "https://arxiv.org/abs/2106.09685"),
            new Preset.Source("QLoRA: Efficient Finetuning of Quantized LLMs (65B on one 48 GB GPU)",
                "https://arxiv.org/abs/2305.14314"),
            new Preset.Source("Reducing Activation Recomputation in Large Transformer Models (activation memory)",
                "https://arxiv.org/abs/2205.05198")));
  }

  @Override
  public List<String[]> problems(Args args) {
    List<String[]> problems = new java.util.ArrayList<>(LlmParameters.problems(args, "sequence_length"));
    String method = args.text("method");
    if (args.has("precision") && !allowed(method).contains(args.text("precision"))) {
      problems.add(new String[] {"precision", method + " takes " + String.join(" or ", allowed(method))});
    }
    return problems;
  }

  private static List<String> allowed(String method) {
    return switch (method) {
      case "full" -> List.of("bf16");
      case "qlora" -> List.of("int4");
      default -> List.of("bf16", "fp8");
    };
  }

  @Override
  public Need need(Args args) {
    Architecture model = LlmParameters.architecture(args);
    String method = args.text("method");
    Precision precision = Precision.of(args.has("precision") ? args.text("precision") : allowed(method).get(0));
    double activations = activationsGb(model, args.integer("sequence_length"), args.integer("batch"));
    double checkpointGb = model.totalParamsB() * 2;
    if ("full".equals(method)) {
      double states = fullGb(model.totalParamsB());
      String forWhat = Need.gb(states) + " of weights, gradients and AdamW states and " + Need.gb(activations)
          + " of activations (full fine-tuning, mixed precision)";
      return Need.of(List.of(new Need.Part("weights_and_optimizer", states), new Need.Part("activations", activations)),
          true, true, Math.max(16, checkpointGb), checkpointGb + model.totalParamsB() * 12 + 20, forWhat);
    }
    double weights = LlmInference.weightsGb(model.totalParamsB(), precision);
    long adapterParams = adapterParameters(model, args.integer("lora_rank"));
    double adapters = adapterParams * ADAPTER_BYTES_PER_PARAMETER / 1e9;
    String forWhat = Need.gb(weights) + " of frozen " + precision.label() + " weights, " + Need.gb(adapters)
        + " of rank-" + args.integer("lora_rank") + " adapters with their optimizer state and " + Need.gb(activations)
        + " of activations (" + method.toUpperCase(Locale.ROOT).replace("QLORA", "QLoRA").replace("LORA", "LoRA") + ")";
    return Need.of(List.of(new Need.Part("weights", weights), new Need.Part("adapters", adapters),
            new Need.Part("activations", activations)),
        true, true, Math.max(16, weights), checkpointGb + adapters + 20, forWhat);
  }

  static double fullGb(double paramsB) {
    return paramsB * FULL_BYTES_PER_PARAMETER;
  }

  /** rank × layers × 20 × hidden: an A (in × r) and a B (r × out) matrix on every linear layer. */
  static long adapterParameters(Architecture model, int rank) {
    return (long) rank * model.layers() * ADAPTED_WIDTH_PER_HIDDEN * model.hiddenSize();
  }

  /** With full checkpointing: each layer's bf16 input (2 bytes) kept, one layer (34 bytes) recomputed at a time. */
  static double activationsGb(Architecture model, int sequenceLength, int batch) {
    return (double) sequenceLength * batch * model.hiddenSize() * (2L * model.layers() + RECOMPUTED_LAYER_BYTES) / 1e9;
  }
}
