package io.gpurental.gateway.catalog.workloads;

import java.util.List;
import java.util.Map;

/**
 * Text-to-image diffusion without offloading: every component of the pipeline (denoiser, text
 * encoders, VAE) resident on one GPU, from the parameter counts their publishers state, plus a
 * working set per image at 1024 × 1024. A pipeline runs on one GPU: it is not split.
 */
final class ImageGeneration implements Family {
  static final String ID = "image-generation";

  /** A model class: its components' parameters (billions) and the working memory per 1024² image (GB). */
  record Model(String id, String name, double paramsB, double perImageGb, String parts) {}

  static final Map<String, Model> MODELS = Map.of(
      "sdxl", new Model("sdxl", "SDXL", 2.567 + 0.817 + 0.084, 1.0,
          "UNet 2.567B + text encoders 0.817B (CLIP ViT-L, OpenCLIP ViT-bigG) + VAE 0.084B"),
      "flux.1-dev", new Model("flux.1-dev", "FLUX.1 [dev]", 12.0 + 4.76 + 0.12 + 0.08, 1.5,
          "transformer 12B + T5-XXL encoder 4.76B + CLIP ViT-L 0.12B + VAE 0.08B"));

  @Override
  public Preset preset() {
    return new Preset(ID, "Image generation", "Text-to-image diffusion, SDXL-class or FLUX-class, at 1024 × 1024.",
        List.of(Parameter.choice("model", "sdxl", List.of("sdxl", "flux.1-dev"), "The model class."),
            Parameter.choice("precision", "bf16", List.of("bf16", "fp8"), "Weight precision (fp8: 1 byte per parameter)."),
            Parameter.integer("batch", "images", 1, 1, 16, "Images generated at once.")),
        "weights = parameters of every pipeline component × bytes (SDXL 3.47B: UNet 2.567B + text encoders 0.817B"
            + " + VAE 0.084B; FLUX.1 [dev] 16.96B: transformer 12B + T5-XXL encoder 4.76B + CLIP-L 0.12B + VAE 0.08B);"
            + " working memory = batch × 1.0 GB (SDXL) or 1.5 GB (FLUX) per 1024² image (our planning figure);"
            + " total = weights + working memory + 10 % runtime overhead (at least 1 GB), on one GPU, no offloading.",
        List.of(new Preset.Source("SDXL: Improving Latent Diffusion Models for High-Resolution Image Synthesis"
                + " (UNet 2.6B, text encoders 817M)", "https://arxiv.org/abs/2307.01952"),
            new Preset.Source("FLUX.1 [dev] model card (12 billion parameter rectified flow transformer)",
                "https://huggingface.co/black-forest-labs/FLUX.1-dev"),
            new Preset.Source("T5 v1.1 XXL (the FLUX text encoder)", "https://huggingface.co/google/t5-v1_1-xxl")));
  }

  @Override
  public Need need(Args args) {
    Model model = MODELS.get(args.text("model"));
    Precision precision = Precision.of(args.text("precision"));
    int batch = args.integer("batch");
    double weights = LlmInference.weightsGb(model.paramsB(), precision);
    double working = batch * model.perImageGb();
    String forWhat = Need.gb(weights) + " of " + model.name() + " weights and " + Need.gb(working) + " for "
        + (batch == 1 ? "one 1024² image" : batch + " 1024² images at once") + " (" + precision.label() + ")";
    return Need.of(List.of(new Need.Part("weights", weights), new Need.Part("working_memory", working)), false, false,
        Math.max(16, weights), weights + 20, forWhat);
  }
}
