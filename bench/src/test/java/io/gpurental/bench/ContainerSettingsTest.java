package io.gpurental.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The harness starts the gateway with the Dockerfile's JVM options, so its memory figures are the image's. */
class ContainerSettingsTest {
  @Test
  void theHarnessRunsTheGatewayAsTheImageDoes() throws Exception {
    Path here = Path.of("Dockerfile");
    String dockerfile = Files.readString(Files.exists(here) ? here : Path.of("../Dockerfile"));
    String entrypoint = dockerfile.lines().filter(l -> l.startsWith("ENTRYPOINT")).findFirst().orElseThrow();
    for (String option : GatewayLauncher.CONTAINER_JVM) {
      assertTrue(entrypoint.contains("\"" + option + "\""), option + " is not in " + entrypoint);
    }
    assertTrue(entrypoint.matches(".*\"java\", (\"-X[^\"]*\", )*\"-jar\".*"), entrypoint);
    assertTrue(entrypoint.split("\"-X").length - 1 == GatewayLauncher.CONTAINER_JVM.size(),
        "the Dockerfile has JVM options the harness does not use: " + entrypoint);
  }
}
