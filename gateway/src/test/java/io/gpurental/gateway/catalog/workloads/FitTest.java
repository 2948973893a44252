package io.gpurental.gateway.catalog.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.platform.errors.Invalid;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The smallest fitting GPU count, the fit sentence, and parameter validation. */
class FitTest {
  private static final Fit.Hardware H100 = new Fit.Hardware("H100 SXM", 80, List.of(1, 2, 4, 8), "NVLink", 256, 3840);
  private static final Fit.Hardware L40S = new Fit.Hardware("L40S", 48, List.of(1, 2, 4, 8), "PCIe", 128, 1920);
  private static final Fit.Hardware RTX_4090 = new Fit.Hardware("RTX 4090", 24, List.of(1, 2, 4), "PCIe", 64, 1024);

  @Test
  void theSmallestCountThatHoldsTheTotal() {
    Need need = Workloads.resolve("llm-inference", Map.of("model", "llama-3.1-70b")).need();
    Fit fit = Fit.smallest(need, H100, 1, 8).orElseThrow();
    assertEquals(2, fit.gpuCount(), "(141.2 + 2.7) × 1.1 = 158 GB ≤ 160");
    assertEquals(160, fit.vramGb());
    assertEquals("2 × H100 SXM: 160 GB for 141 GB of weights and 2.7 GB of KV cache at 8k context (bf16),"
        + " 158 GB in all with runtime overhead", fit.sentence());
    assertEquals(4, Fit.smallest(need, H100, 3, 8).orElseThrow().gpuCount(), "min_gpus still applies");
    assertEquals(Optional.empty(), Fit.smallest(need, RTX_4090, 1, 8), "4 × 24 GB is not enough");
  }

  @Test
  void multiGpuTrainingNeedsAFastInterconnect() {
    Need full = Workloads.resolve("llm-finetune", Map.of("params_b", "13", "method", "full")).need();
    assertEquals(4, Fit.smallest(full, H100, 1, 8).orElseThrow().gpuCount());
    assertTrue(Fit.smallest(full, H100, 1, 8).orElseThrow().sentence().startsWith("4 × H100 SXM over NVLink: 320 GB"));
    assertEquals(Optional.empty(), Fit.smallest(full, L40S, 1, 8), "8 × 48 GB would hold it, but over PCIe");
    Need lora = Workloads.resolve("llm-finetune", Map.of("params_b", "13")).need();
    assertEquals(1, Fit.smallest(lora, L40S, 1, 8).orElseThrow().gpuCount());
    assertEquals(Optional.empty(), Fit.smallest(lora, RTX_4090, 1, 8), "two 4090s over PCIe do not train");
  }

  @Test
  void workThatCannotBeSplitNeedsItAllOnEachGpu() {
    Need flux = Workloads.resolve("image-generation", Map.of("model", "flux.1-dev")).need();
    assertEquals(Optional.empty(), Fit.smallest(flux, RTX_4090, 1, 8), "4 × 24 GB do not make one 39 GB GPU");
    assertEquals(1, Fit.smallest(flux, L40S, 1, 8).orElseThrow().gpuCount());
  }

  @Test
  void aWorkloadThatFitsNowhereSaysWhatItNeeds() {
    Need need = Workloads.resolve("llm-inference", Map.of("model", "deepseek-v3")).need();
    String unmet = Fit.unmet(need, List.of(H100, L40S));
    assertTrue(unmet.startsWith("Needs 1,477 GB of VRAM in all (1,342 GB of weights"), unmet);
    assertTrue(unmet.endsWith("the most an offer here has is 8 × H100 SXM with 640 GB."), unmet);
  }

  @Test
  void unknownAndOutOfRangeParametersAreNamed() {
    Invalid unknown = assertThrows(Invalid.class, () -> Workloads.resolve("llm-inference", Map.of("method", "lora")));
    assertTrue(pointers(unknown).contains("#/method"), unknown.getMessage());
    Invalid range = assertThrows(Invalid.class,
        () -> Workloads.resolve("llm-inference", Map.of("context", "64", "sequences", "1.5", "precision", "fp4")));
    assertEquals(List.of("#/context", "#/precision", "#/sequences"), pointers(range));
    Invalid tooLong = assertThrows(Invalid.class,
        () -> Workloads.resolve("llm-inference", Map.of("model", "mixtral-8x7b", "context", "65536")));
    assertEquals(List.of("#/context"), pointers(tooLong));
    Invalid both = assertThrows(Invalid.class,
        () -> Workloads.resolve("llm-finetune", Map.of("model", "llama-3.1-8b", "params_b", "8", "method", "qlora",
            "precision", "bf16")));
    assertEquals(List.of("#/params_b", "#/precision"), pointers(both));
    Invalid preset = assertThrows(Invalid.class, () -> Workloads.resolve("mining", Map.of()));
    assertEquals(List.of("#/workload"), pointers(preset));
  }

  private static List<String> pointers(Invalid invalid) {
    return invalid.extensions().getJsonArray("errors").stream()
        .map(error -> ((io.vertx.core.json.JsonObject) error).getString("pointer")).toList();
  }
}
