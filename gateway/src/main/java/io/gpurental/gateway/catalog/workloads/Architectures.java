package io.gpurental.gateway.catalog.workloads;

import java.util.List;
import java.util.Optional;

/** The named architectures a workload may pick, with the figures of their published configs. */
public final class Architectures {
  private static final String HF = "https://huggingface.co/";

  public static final List<Architecture> ALL = List.of(
      new Architecture("llama-3.1-8b", "Llama 3.1 8B", 8.03, 8.03, 32, 4096, 8, 128, null, null, 131_072,
          HF + "meta-llama/Llama-3.1-8B/blob/main/config.json", false),
      new Architecture("llama-3.1-70b", "Llama 3.1 70B", 70.6, 70.6, 80, 8192, 8, 128, null, null, 131_072,
          HF + "meta-llama/Llama-3.1-70B/blob/main/config.json", false),
      new Architecture("llama-3.1-405b", "Llama 3.1 405B", 405.9, 405.9, 126, 16384, 8, 128, null, null, 131_072,
          HF + "meta-llama/Llama-3.1-405B/blob/main/config.json", false),
      new Architecture("qwen2.5-72b", "Qwen2.5 72B", 72.7, 72.7, 80, 8192, 8, 128, null, null, 131_072,
          HF + "Qwen/Qwen2.5-72B-Instruct/blob/main/config.json (131,072 tokens with YaRN scaling)", false),
      new Architecture("mixtral-8x7b", "Mixtral 8x7B", 46.7, 12.9, 32, 4096, 8, 128, null, null, 32_768,
          HF + "mistralai/Mixtral-8x7B-v0.1/blob/main/config.json; parameters: mistral.ai/news/mixtral-of-experts",
          false),
      new Architecture("deepseek-v3", "DeepSeek-V3", 671, 37, 61, 7168, 128, 128, 512, 64, 131_072,
          HF + "deepseek-ai/DeepSeek-V3/blob/main/config.json (kv_lora_rank 512, qk_rope_head_dim 64);"
              + " parameters: arXiv:2412.19437", false));

  private Architectures() {}

  public static Optional<Architecture> byId(String id) {
    return ALL.stream().filter(architecture -> architecture.id().equalsIgnoreCase(id)).findFirst();
  }

  public static List<String> ids() {
    return ALL.stream().map(Architecture::id).toList();
  }
}
