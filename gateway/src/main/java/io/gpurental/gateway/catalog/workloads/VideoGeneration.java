package io.gpurental.gateway.catalog.workloads;

import java.util.List;
import java.util.Map;

/**
 * Text-to-video diffusion without offloading (Wan2.1: a small 1.3B and a 14B-class model):
 * the diffusion transformer, the umT5 text encoder and the VAE resident on one GPU, plus the
 * working set of a 5-second clip at the resolution. Not split over GPUs.
 */
final class VideoGeneration implements Family {
  static final String ID = "video-generation";
  static final double ENCODER_B = 5.7;
  static final double VAE_B = 0.13;

  /** A model: its transformer's parameters (billions) and working memory per resolution (GB). */
  record Model(String id, String name, double transformerB, Map<String, Double> workingGb) {}

  static final Map<String, Model> MODELS = Map.of(
      "wan2.1-1.3b", new Model("wan2.1-1.3b", "Wan2.1 1.3B", 1.3, Map.of("480p", 2.0)),
      "wan2.1-14b", new Model("wan2.1-14b", "Wan2.1 14B", 14, Map.of("480p", 6.0, "720p", 14.0)));

  @Override
  public Preset preset() {
    return new Preset(ID, "Video generation", "Text-to-video diffusion: a small (1.3B) or a 14B-class model, 5-second clips.",
        List.of(Parameter.choice("model", "wan2.1-1.3b", List.of("wan2.1-1.3b", "wan2.1-14b"), "The model."),
            Parameter.choice("resolution", "480p", List.of("480p", "720p"), "Output resolution (1.3B: 480p only).")),
        "weights = (transformer + umT5-XXL encoder 5.7B + VAE 0.13B) × 2 bytes (bf16); working memory for a"
            + " 5-second clip: 1.3B 2 GB at 480p, 14B 6 GB at 480p and 14 GB at 720p (our planning figures);"
            + " total = weights + working memory + 10 % runtime overhead, on one GPU without offloading. The Wan2.1"
            + " README reports 8.19 GB for the 1.3B model at 480p on an RTX 4090 with offloading (model offload,"
            + " T5 on the CPU), which trades speed for memory.",
        List.of(new Preset.Source("Wan2.1 README (models, 1.3B at 480p in 8.19 GB with offloading)",
                "https://github.com/Wan-Video/Wan2.1"),
            new Preset.Source("Wan: Open and Advanced Large-Scale Video Generative Models", "https://arxiv.org/abs/2503.20314")));
  }

  @Override
  public List<String[]> problems(Args args) {
    Model model = MODELS.get(args.text("model"));
    if (!model.workingGb().containsKey(args.text("resolution"))) {
      return List.<String[]>of(new String[] {"resolution", model.name() + " generates " + String.join(", ", model.workingGb().keySet())});
    }
    return List.of();
  }

  @Override
  public Need need(Args args) {
    Model model = MODELS.get(args.text("model"));
    String resolution = args.text("resolution");
    double weights = (model.transformerB() + ENCODER_B + VAE_B) * Precision.BF16.bytesPerParameter();
    double working = model.workingGb().get(resolution);
    String forWhat = Need.gb(weights) + " of " + model.name() + " weights and " + Need.gb(working) + " for a 5-second "
        + resolution + " clip (bf16)";
    return Need.of(List.of(new Need.Part("weights", weights), new Need.Part("working_memory", working)), false, false,
        Math.max(16, weights), weights + 20, forWhat);
  }
}
