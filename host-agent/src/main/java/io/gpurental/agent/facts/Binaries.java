package io.gpurental.agent.facts;

import java.nio.file.Files;
import java.nio.file.Path;

/** Whether a program the agent asks about the machine is installed. */
final class Binaries {
  private Binaries() {
  }

  /** A path must be executable; a bare name must be found executable on PATH. */
  static boolean present(String binary) {
    if (binary.contains("/")) {
      return Files.isExecutable(Path.of(binary));
    }
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, binary))) {
        return true;
      }
    }
    return false;
  }
}
