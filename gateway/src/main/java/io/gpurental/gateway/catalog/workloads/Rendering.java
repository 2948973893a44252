package io.gpurental.gateway.catalog.workloads;

import java.util.List;

/**
 * 3D rendering on the GPU (Blender Cycles and the like): the whole scene must fit in each GPU's
 * memory; more GPUs render faster, they do not hold a bigger scene.
 */
final class Rendering implements Family {
  static final String ID = "3d-rendering";

  @Override
  public Preset preset() {
    return new Preset(ID, "3D rendering", "Path-traced rendering (Blender Cycles, OctaneRender, Redshift).",
        List.of(Parameter.number("scene_gb", "GB", 8.0, 0.5, 1024, "The scene's geometry and textures in GPU memory.")),
        "per GPU = scene + 10 % runtime overhead (at least 1 GB): each GPU holds the whole scene, so it is not split."
            + " Host RAM ≥ 2 × scene (at least 16 GB); disk = scene + 20 GB.",
        List.of(new Preset.Source("Blender Manual, GPU rendering: the scene must fit in GPU memory",
            "https://docs.blender.org/manual/en/latest/render/cycles/gpu_rendering.html")));
  }

  @Override
  public Need need(Args args) {
    double scene = args.number("scene_gb");
    return Need.of(List.of(new Need.Part("scene", scene)), false, false, Math.max(16, 2 * scene), scene + 20,
        "a " + Need.gb(scene) + " scene");
  }
}
