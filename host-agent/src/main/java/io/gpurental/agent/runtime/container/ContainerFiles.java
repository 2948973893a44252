package io.gpurental.agent.runtime.container;

import io.gpurental.agent.runtime.Trees;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The agent's own files for containers, under {@code <state-dir>/containers} (0700): the dropbear
 * bundle, and per instance its keys. Written only by the agent; containers see them read-only.
 */
final class ContainerFiles {
  private final Path root;
  private final SshBundle ssh;
  private boolean bundled;

  ContainerFiles(Path root, SshBundle ssh) {
    this.root = root;
    this.ssh = ssh;
  }

  Path bundle() {
    return root.resolve("bundle");
  }

  Path keys(String id) {
    return root.resolve(id).resolve("keys");
  }

  /** Makes the bundle once per agent start (the host's dropbear may have been upgraded) and the keys. */
  String prepare(String id, String renterKey) throws IOException {
    synchronized (this) {
      if (!bundled) {
        Files.createDirectories(root);
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx------"));
        Path fresh = root.resolve("bundle.new");
        delete(fresh);
        ssh.prepare(fresh);
        delete(bundle());
        Files.move(fresh, bundle());
        bundled = true;
      }
    }
    return ssh.writeKeys(keys(id), renterKey);
  }

  void remove(String id) throws IOException {
    delete(root.resolve(id));
  }

  private static void delete(Path dir) throws IOException {
    Trees.deleteNoFollow(dir);
  }
}
