package io.gpurental.agent.runtime;

import io.gpurental.agent.protocol.SshEndpoint;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The process runtime's record of each instance, {@code instances/<id>/instance.properties} next
 * to its sshd config, host key and pid file. Written step by step, so that a crash half-way
 * leaves enough to clean up: the user is deleted only if this agent created it.
 */
final class InstanceFiles {
  private final Path root;

  InstanceFiles(Path root) {
    this.root = root;
  }

  /** What the record says; {@code endpoint} is set once the instance ran. */
  record State(String user, int uid, boolean userCreated, int port, SshEndpoint endpoint) {
  }

  Path dir(String id) {
    return root.resolve(id);
  }

  Path sshdConfig(String id) {
    return dir(id).resolve("sshd_config");
  }

  Path pidFile(String id) {
    return dir(id).resolve("sshd.pid");
  }

  List<String> ids() throws IOException {
    List<String> ids = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return ids;
    }
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, Files::isDirectory)) {
      dirs.forEach(d -> ids.add(d.getFileName().toString()));
    }
    return ids;
  }

  void create(String id, String user) throws IOException {
    Files.createDirectories(root);
    chmod(root, "rwx------");
    Files.createDirectory(dir(id));
    chmod(dir(id), "rwx------");
    Properties p = new Properties();
    p.setProperty("user", user);
    write(id, p);
  }

  void markUid(String id, int uid) throws IOException {
    update(id, "uid", Integer.toString(uid));
  }

  void markUserCreated(String id) throws IOException {
    update(id, "user_created", "true");
  }

  void markPort(String id, int port) throws IOException {
    update(id, "port", Integer.toString(port));
  }

  void markRunning(String id, SshEndpoint ssh) throws IOException {
    Properties p = load(id);
    p.setProperty("ssh.host", ssh.host());
    p.setProperty("ssh.fingerprint", ssh.hostKeyFingerprint());
    p.setProperty("ssh.host_key", ssh.hostKey());
    write(id, p);
  }

  /** Null when there is no readable record (a directory left by a crash before the first write). */
  State read(String id) {
    Properties p;
    try {
      p = load(id);
    } catch (IOException e) {
      return null;
    }
    String user = p.getProperty("user");
    if (user == null) {
      return null;
    }
    int port = Integer.parseInt(p.getProperty("port", "0"));
    SshEndpoint endpoint = p.getProperty("ssh.fingerprint") == null ? null
        : new SshEndpoint(p.getProperty("ssh.host"), port, user, p.getProperty("ssh.fingerprint"),
            p.getProperty("ssh.host_key"));
    int uid = Integer.parseInt(p.getProperty("uid", "-1"));
    return new State(user, uid, Boolean.parseBoolean(p.getProperty("user_created")), port, endpoint);
  }

  void delete(String id) throws IOException {
    if (!Files.exists(dir(id))) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir(id))) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  static void chmod(Path path, String permissions) throws IOException {
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
  }

  private void update(String id, String key, String value) throws IOException {
    Properties p = load(id);
    p.setProperty(key, value);
    write(id, p);
  }

  private Properties load(String id) throws IOException {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(dir(id).resolve("instance.properties"))) {
      p.load(in);
    }
    return p;
  }

  /** Through a temporary file and a rename, so a crash never leaves half a record. */
  private void write(String id, Properties p) throws IOException {
    Path tmp = dir(id).resolve("instance.properties.tmp");
    try (Writer out = Files.newBufferedWriter(tmp)) {
      p.store(out, "gpu-host-agent instance record");
    }
    Files.move(tmp, dir(id).resolve("instance.properties"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }
}
