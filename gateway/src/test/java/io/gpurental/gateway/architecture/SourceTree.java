package io.gpurental.gateway.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The gateway's main sources, by top-level package ({@code auth}, {@code payments}, …). */
final class SourceTree {
  static final Path ROOT = Path.of("src/main/java/io/gpurental/gateway");

  private SourceTree() {}

  /** The top-level package a source file belongs to ({@code ""} for Gateway.java and Main.java). */
  static String packageOf(Path file) {
    Path relative = ROOT.relativize(file);
    return relative.getNameCount() == 1 ? "" : relative.getName(0).toString();
  }

  static List<Path> javaFiles() {
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files.filter(f -> f.toString().endsWith(".java")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
