package io.gpurental.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The agent's state directory (mode 0700): {@code credential} (0600, the host credential),
 * {@code host_id}, and the process runtime's {@code instances/}. Blocking: worker threads only.
 */
final class StateDir {
  private final Path dir;

  StateDir(Path dir) {
    this.dir = dir;
  }

  /** What enrolment left; null when this host has not enrolled yet. */
  record Enrolled(String hostId, String credential) {
  }

  void prepare() throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
  }

  Enrolled read() throws IOException {
    Path credential = dir.resolve("credential");
    if (!Files.exists(credential)) {
      return null;
    }
    Path hostId = dir.resolve("host_id");
    return new Enrolled(Files.exists(hostId) ? Files.readString(hostId).strip() : null,
        Files.readString(credential).strip());
  }

  void save(Enrolled enrolled) throws IOException {
    write("host_id", enrolled.hostId());
    write("credential", enrolled.credential());
  }

  /** Created 0600 before a byte is written, then renamed into place. */
  private void write(String name, String value) throws IOException {
    Path tmp = dir.resolve(name + ".tmp");
    Files.deleteIfExists(tmp);
    Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(tmp, value + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
