package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.platform.errors.Invalid;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A custom image names which image of its repository: a tag or a digest (a registry's port is neither). */
class ImageRefsTest {
  private static final List<String> ALLOWED = List.of("nvcr.io/nvidia", "localhost:5000", "registry.example:5000/team");

  @Test
  void aCustomImageWithoutATagOrDigestIsRefusedAtTheImageField() {
    for (String untagged : List.of("nvcr.io/nvidia/pytorch", "localhost:5000/x", "registry.example:5000/team/a/b")) {
      Invalid refused = assertThrows(Invalid.class, () -> ImageRefs.requireAllowed(untagged, ALLOWED, "#/image"),
          untagged);
      assertTrue(refused.getMessage().contains("no tag or digest") && refused.getMessage().contains(untagged + ":1.0"),
          refused.getMessage());
      assertEquals("#/image", refused.extensions().getJsonArray("errors").getJsonObject(0).getString("pointer"),
          untagged);
    }
  }

  @Test
  void aTagOrADigestIsEnoughAndAPortIsNoTag() {
    String digest = "@sha256:" + "0".repeat(64);
    for (String ref : List.of("nvcr.io/nvidia/pytorch:24.05-py3", "nvcr.io/nvidia/pytorch" + digest,
        "localhost:5000/x:1", "localhost:5000/x" + digest, "registry.example:5000/team/a:2" + digest)) {
      assertEquals(ref, ImageRefs.requireAllowed(ref, ALLOWED, "#/image"), ref);
    }
    assertEquals(null, ImageRefs.parse("localhost:5000/x").orElseThrow().tag());
    assertEquals("5000", ImageRefs.parse("registry.example/x:5000").orElseThrow().tag());
  }
}
