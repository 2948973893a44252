package io.gpurental.gateway.catalog.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each formula against a case computed by hand (GB = 10⁹ bytes; overhead 10 %, at least 1 GB). */
class FormulasTest {
  private static final double EPS = 1e-6;

  @Test
  void llama70bInBf16At8kContextTimesEightSequences() {
    Need need = need("llm-inference", Map.of("model", "llama-3.1-70b", "context", "8192", "sequences", "8"));
    assertEquals(141.2, need.part("weights"), EPS, "70.6B × 2 bytes");
    // 2 × 80 layers × 8 KV heads × 128 × 2 bytes = 327,680 bytes per token; × 8,192 × 8
    assertEquals(21.47483648, need.part("kv_cache"), EPS);
    assertEquals((141.2 + 21.47483648) * 1.1, need.totalGb(), EPS);
    assertTrue(need.splittable());
    assertFalse(need.fastInterconnectForMultiGpu(), "tensor parallel inference works over PCIe");
    assertEquals("141 GB of weights and 21 GB of KV cache at 8k context × 8 sequences (bf16)", need.forWhat());
  }

  @Test
  void llama8bAtItsFull128kContext() {
    Need need = need("llm-inference", Map.of("model", "llama-3.1-8b", "context", "131072"));
    assertEquals(131_072, LlmInference.kvBytesPerToken(Architectures.byId("llama-3.1-8b").orElseThrow(), Precision.BF16),
        "2 × 32 × 8 × 128 × 2");
    assertEquals(16.06, need.part("weights"), EPS);
    assertEquals(17.179869184, need.part("kv_cache"), EPS, "131,072 bytes × 131,072 tokens = 16 GiB");
    assertEquals(33.239869184 * 1.1, need.totalGb(), EPS);
  }

  @Test
  void precisionSetsBytesPerWeightAndTheCache() {
    Need fp8 = need("llm-inference", Map.of("model", "llama-3.1-70b", "precision", "fp8", "context", "8192"));
    assertEquals(70.6, fp8.part("weights"), EPS);
    assertEquals(327_680 / 2.0 * 8192 / 1e9, fp8.part("kv_cache"), EPS, "fp8 cache: 1 byte");
    Need int4 = need("llm-inference", Map.of("model", "llama-3.1-70b", "precision", "int4", "context", "8192"));
    assertEquals(35.3, int4.part("weights"), EPS, "≈0.5 byte per parameter");
    assertEquals(327_680.0 * 8192 / 1e9, int4.part("kv_cache"), EPS, "weight-only int4 keeps a 16-bit cache");
  }

  @Test
  void deepSeekV3CachesTheCompressedLatentPerToken() {
    Architecture v3 = Architectures.byId("deepseek-v3").orElseThrow();
    assertEquals(61 * (512 + 64), v3.kvValuesPerToken());
    assertEquals(70_272, LlmInference.kvBytesPerToken(v3, Precision.BF16), "61 layers × 576 values × 2 bytes");
    Need need = need("llm-inference", Map.of("model", "deepseek-v3", "precision", "fp8", "context", "4096"));
    assertEquals(671, need.part("weights"), EPS, "all 671B parameters resident, 37B active");
    assertEquals(61 * 576 * 1 * 4096 / 1e9, need.part("kv_cache"), EPS);
  }

  @Test
  void mixtralHoldsAllExpertsButNamesItsActiveParameters() {
    Architecture mixtral = Architectures.byId("mixtral-8x7b").orElseThrow();
    assertEquals(12.9, mixtral.activeParamsB(), EPS);
    assertEquals(93.4, need("llm-inference", Map.of("model", "mixtral-8x7b")).part("weights"), EPS);
  }

  @Test
  void aSizeWithoutANameGetsTheUsualDenseShape() {
    Architecture shape = Architecture.dense(13);
    assertEquals(40, shape.layers(), "Llama 2 13B has 40");
    assertEquals(5120, shape.hiddenSize(), "and 5,120");
    assertTrue(shape.estimated());
  }

  @Test
  void fullFineTuneOf13bIs18BytesPerParameterPlusActivations() {
    Need need = need("llm-finetune", Map.of("params_b", "13", "method", "full"));
    assertEquals(234, need.part("weights_and_optimizer"), EPS, "13B × 18 bytes");
    // 2,048 tokens × 1 × 5,120 hidden × (2 × 40 layers + 34) bytes
    assertEquals(1.19537664, need.part("activations"), EPS);
    assertEquals(235.19537664 * 1.1, need.totalGb(), EPS);
    assertTrue(need.fastInterconnectForMultiGpu(), "multi-GPU training needs NVLink");
  }

  @Test
  void loraOf13bIsFrozenBf16WeightsPlusAdapters() {
    Need need = need("llm-finetune", Map.of("params_b", "13", "method", "lora"));
    assertEquals(26, need.part("weights"), EPS, "13B × 2 bytes, frozen");
    // rank 16 × 40 layers × 20 × 5,120 = 65,536,000 adapter parameters × 12 bytes
    assertEquals(0.786432, need.part("adapters"), EPS);
    assertEquals(1.19537664, need.part("activations"), EPS);
    assertEquals(27.98180864 * 1.1, need.totalGb(), EPS);
  }

  @Test
  void qloraFits65bOnOne48GbGpuAsInThePaper() {
    // the paper's setting: rank 64 on every linear layer, 512-token targets, micro-batch 1
    Need need = need("llm-finetune", Map.of("params_b", "65", "method", "qlora", "lora_rank", "64",
        "sequence_length", "512"));
    assertEquals(32.5, need.part("weights"), EPS, "65B × 0.5 byte");
    // shape: 69 layers × 8,832 hidden; 64 × 69 × 20 × 8,832 = 780,042,240 adapter parameters × 12 bytes
    assertEquals(9.36050688, need.part("adapters"), EPS);
    assertEquals(512 * 8832 * 172 / 1e9, need.part("activations"), EPS);
    assertEquals(42.638288128 * 1.1, need.totalGb(), EPS);
    Fit.Hardware l40s = new Fit.Hardware("L40S", 48, java.util.List.of(1, 2, 4, 8), "PCIe", 128, 1920);
    assertEquals(1, Fit.smallest(need, l40s, 1, 8).orElseThrow().gpuCount(), "one 48 GB GPU");
    Need lora = need("llm-finetune", Map.of("params_b", "65", "method", "lora", "lora_rank", "64", "sequence_length", "512"));
    assertTrue(lora.totalGb() > 130, "16-bit LoRA of the same model needs three times as much");
  }

  @Test
  void fluxInBf16HoldsEveryComponentOnOneGpu() {
    Need need = need("image-generation", Map.of("model", "flux.1-dev"));
    assertEquals(33.92, need.part("weights"), EPS, "(12 + 4.76 + 0.12 + 0.08)B × 2 bytes");
    assertEquals(1.5, need.part("working_memory"), EPS);
    assertEquals(35.42 * 1.1, need.totalGb(), EPS);
    assertFalse(need.splittable());
    assertEquals(need.totalGb(), need.minPerGpuGb(), EPS, "all of it on each GPU");
    Need fp8 = need("image-generation", Map.of("model", "flux.1-dev", "precision", "fp8", "batch", "2"));
    assertEquals((16.96 + 3.0) * 1.1, fp8.totalGb(), EPS);
  }

  @Test
  void sdxlVideoRenderingAndDataFromTheirFigures() {
    assertEquals(3.468 * 2 + 1 + 1, need("image-generation", Map.of()).totalGb(), EPS, "overhead 0.79 GB, so the 1 GB minimum");
    assertEquals(((14 + 5.7 + 0.13) * 2 + 14) * 1.1,
        need("video-generation", Map.of("model", "wan2.1-14b", "resolution", "720p")).totalGb(), EPS);
    assertEquals(9, need("3d-rendering", Map.of()).totalGb(), EPS, "8 GB scene + the 1 GB minimum overhead");
    Need data = need("batch-data", Map.of("dataset_gb", "100"));
    assertEquals(220, data.totalGb(), EPS);
    assertTrue(data.splittable());
  }

  private static Need need(String preset, Map<String, String> parameters) {
    return Workloads.resolve(preset, parameters).need();
  }
}
