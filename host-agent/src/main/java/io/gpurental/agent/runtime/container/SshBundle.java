package io.gpurental.agent.runtime.container;

import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.InstanceFailure;
import io.gpurental.agent.runtime.SshKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SSH for any image with a shell, supplied from outside it: the host's dropbear (it needs no privsep
 * user in the image, unlike OpenSSH's sshd) with its shared libraries and the host's dynamic loader,
 * mounted read-only at {@link #MOUNT} and started through that loader, so the image's own libc never
 * matters. Every session goes through the forced command {@link #LOGIN}, which sources the
 * instance's environment ({@link SessionEnv}) and then runs the renter's command or login shell.
 * Host keys are made here, outside the container, so the fingerprint is known before the first
 * login. Blocking: worker threads only.
 */
final class SshBundle {
  static final String MOUNT = "/.gpr";
  static final String KEYS_MOUNT = "/.gpr-keys";
  static final String HOST_KEY = "dropbear_host_key";
  /**
   * dropbear's alone: it re-executes itself (through /proc/self/exe, the bundled loader) for every
   * connection, which drops the loader's --library-path, so it needs the variable in its own
   * environment. The bundled {@code env} sets it for dropbear only, not in the container's
   * environment, and dropbear clears its environment before a session (it is not started with
   * -e), so the variable reaches neither the renter's sessions nor anything else in the container.
   */
  static final String LIBRARY_PATH = MOUNT + "/lib";
  /** The forced command of every session (dropbear -c): the instance's environment, then the shell. */
  static final String LOGIN = MOUNT + "/login";
  /** The instance's session environment, written by the agent next to its keys. */
  static final String ENV_FILE = "env";
  /** Where a login shell's /etc/profile (which resets PATH on Debian) picks the environment up again. */
  static final String PROFILE_D = "/etc/profile.d/gpr-instance-env.sh";
  private static final Path ENV_TOOL = Path.of("/usr/bin/env");
  private static final String LOGIN_SCRIPT = """
      #!/bin/sh
      # Every SSH session of the instance runs this (dropbear's forced command). dropbear starts a
      # session with an emptied environment: the instance's (the image's ENV and the GPUs') comes
      # from the file the host agent wrote. Then what the renter asked for (a command, scp, sftp),
      # or a login shell.
      if [ -r %s ]; then . %s; fi
      if [ -n "$SSH_ORIGINAL_COMMAND" ]; then exec "${SHELL:-/bin/sh}" -c "$SSH_ORIGINAL_COMMAND"; fi
      exec "${SHELL:-/bin/sh}" -l
      """.formatted(KEYS_MOUNT + "/" + ENV_FILE, KEYS_MOUNT + "/" + ENV_FILE);
  private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(20);
  private static final Pattern LIB = Pattern.compile("(?:=>\\s*)?(/\\S+)\\s+\\(0x");

  private final Path dropbear;
  private final Commands commands;

  SshBundle(Path dropbear, Commands commands) {
    this.dropbear = dropbear;
    this.commands = commands;
  }

  /**
   * Copies dropbear and the host's {@code env}, every library {@code ldd} names and the loader into
   * {@code dir} (made afresh), and writes the login wrapper.
   */
  void prepare(Path dir) throws IOException {
    Path lib = dir.resolve("lib");
    Files.createDirectories(lib);
    for (Path binary : List.of(dropbear, ENV_TOOL)) {
      Commands.Result ldd = commands.run(List.of("ldd", binary.toString()), TOOL_TIMEOUT);
      if (!ldd.ok()) {
        throw new IOException("ldd " + binary + ": " + ldd.summary());
      }
      for (String line : ldd.out().split("\\R")) {
        Matcher m = LIB.matcher(line);
        if (!m.find()) {
          continue;
        }
        Path library = Path.of(m.group(1));
        boolean loader = library.getFileName().toString().startsWith("ld-linux");
        copy(library, loader ? dir.resolve("ld.so") : lib.resolve(library.getFileName()));
      }
    }
    copy(dropbear, dir.resolve("dropbear"));
    copy(ENV_TOOL, dir.resolve("env"));
    Files.writeString(dir.resolve("login"), LOGIN_SCRIPT, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(dir.resolve("login"), PosixFilePermissions.fromString("r-xr-xr-x"));
    if (!Files.exists(dir.resolve("ld.so"))) {
      throw new IOException("ldd named no dynamic loader for " + dropbear);
    }
  }

  /**
   * The container's command: the bundled {@code env} puts {@link #LIBRARY_PATH} into dropbear's
   * environment alone, then dropbear through the bundled loader, in the foreground, keys only, with
   * every session through {@link #LOGIN}.
   */
  static List<String> command() {
    return List.of(MOUNT + "/ld.so", "--library-path", LIBRARY_PATH, MOUNT + "/env", "LD_LIBRARY_PATH=" + LIBRARY_PATH,
        MOUNT + "/ld.so", MOUNT + "/dropbear", "-F", "-E", "-s", "-c", LOGIN, "-p", "22",
        "-r", KEYS_MOUNT + "/" + HOST_KEY, "-P", "/dev/shm/.gpr-dropbear.pid");
  }

  /**
   * Writes the instance's keys into {@code keys} (a fresh host key unless one is there, and the
   * renter's authorized_keys) and answers the host's public key line.
   */
  String writeKeys(Path keys, String renterKey) throws IOException {
    if (!SshKeys.isPlainPublicKey(renterKey)) {
      throw new InstanceFailure(InstanceFailure.USER_SETUP_FAILED, "the renter's key is not one plain public key");
    }
    Files.createDirectories(keys);
    Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rwx------"));
    Path openssh = keys.resolve("host_key");
    if (!Files.exists(keys.resolve(HOST_KEY))) {
      Files.deleteIfExists(openssh);
      Files.deleteIfExists(keys.resolve("host_key.pub"));
      run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "", "-f", openssh.toString()));
      run(List.of("dropbearconvert", "openssh", "dropbear", openssh.toString(), keys.resolve(HOST_KEY).toString()));
      Files.delete(openssh); // the container only ever needs the dropbear form
    }
    Path env = keys.resolve(ENV_FILE);
    if (!Files.exists(env)) {
      Files.writeString(env, "", StandardCharsets.UTF_8); // bind-mounted before it is filled in
    }
    // no secret (the image's ENV and GPU names), and /etc/profile.d is read by every user's login
    Files.setPosixFilePermissions(env, PosixFilePermissions.fromString("rw-r--r--"));
    Path authorized = keys.resolve("authorized_keys");
    Files.writeString(authorized, renterKey.strip() + "\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(authorized, PosixFilePermissions.fromString("rw-------"));
    return SshKeys.withoutComment(Files.readString(keys.resolve("host_key.pub")));
  }

  /** The host public key line the agent wrote for an instance (never read from the container). */
  static String hostPublicKey(Path keys) throws IOException {
    return SshKeys.withoutComment(Files.readString(keys.resolve("host_key.pub")));
  }

  /** Hands the key files to the container's root (a user-namespace remap maps it to {@code uid}). */
  static void chown(Path keys, int uid, int gid) throws IOException {
    for (Path p : List.of(keys, keys.resolve(HOST_KEY), keys.resolve("authorized_keys"), keys.resolve(ENV_FILE))) {
      Files.setAttribute(p, "unix:uid", uid);
      Files.setAttribute(p, "unix:gid", gid);
    }
  }

  /**
   * Fills in the session environment, in place: the file is bind-mounted by inode (at
   * {@link #PROFILE_D}), so it must not be replaced by a new one.
   */
  static void writeEnv(Path keys, String content) throws IOException {
    Files.writeString(keys.resolve(ENV_FILE), content, StandardCharsets.UTF_8);
  }

  private void run(List<String> argv) throws IOException {
    Commands.Result r = commands.run(argv, TOOL_TIMEOUT);
    if (!r.ok()) {
      throw new IOException(argv.get(0) + ": " + r.summary());
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("r-xr-xr-x"));
  }
}
