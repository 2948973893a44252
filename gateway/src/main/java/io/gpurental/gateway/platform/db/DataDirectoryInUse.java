package io.gpurental.gateway.platform.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Refuses a PostgreSQL data directory that a running server already uses: its
 * {@code postmaster.pid} names a live PostgreSQL process. A stale file (the server crashed) is
 * left for PostgreSQL itself to replace.
 */
final class DataDirectoryInUse {
  private DataDirectoryInUse() {}

  static void refuseIfInUse(Path dataDir) {
    postmasterPid(dataDir).flatMap(ProcessHandle::of).filter(DataDirectoryInUse::isPostgres).ifPresent(process -> {
      throw new IllegalStateException("the embedded PostgreSQL data directory " + dataDir
          + " is in use by a running PostgreSQL server (PID " + process.pid() + "; is another gateway running"
          + " from this directory?). Stop it, or give this gateway its own db.embedded.data_dir");
    });
  }

  private static Optional<Long> postmasterPid(Path dataDir) {
    try {
      List<String> lines = Files.readAllLines(dataDir.resolve("postmaster.pid"));
      return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).trim()));
    } catch (NoSuchFileException | NumberFormatException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + dataDir.resolve("postmaster.pid") + ": " + e.getMessage(), e);
    }
  }

  /** A live process that may be PostgreSQL (its command is unknown, or names postgres). */
  private static boolean isPostgres(ProcessHandle process) {
    return process.isAlive()
        && process.info().command().map(command -> command.contains("postgres")).orElse(true);
  }
}
