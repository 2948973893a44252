package io.gpurental.agent.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the process runtime does to a tenant's files, written so that a tenant's own code can
 * never turn it against the host: the key is written with the tenant's privileges (a symlink to a
 * root-owned place then fails instead of being followed by root), a leftover home is removed
 * without following links, and what a tenant leaves in shared places (temporary directories,
 * shared memory, SysV IPC, cron and at jobs) is swept when its instance ends.
 */
final class TenantFiles {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final List<String> SHARED_DIRS = List.of("/tmp", "/var/tmp", "/dev/shm",
      "/var/spool/cron/atjobs");
  /** /proc/sysvipc's table name and ipcrm's flag for each kind of SysV IPC object. */
  private static final java.util.Map<String, String> IPC_KINDS = java.util.Map.of("shm", "-m", "sem", "-s", "msg", "-q");
  // runs as the tenant: cd fails on a home that is not its own, and every write is its own
  private static final String INSTALL_KEY = "set -e; umask 077; cd -- \"$1\"; chmod 700 .; "
      + "if [ -L .ssh ]; then rm -f .ssh; fi; mkdir -p .ssh; chmod 700 .ssh; "
      + "rm -f .ssh/authorized_keys; printf '%s\\n' \"$2\" > .ssh/authorized_keys";

  private final Commands commands;

  TenantFiles(Commands commands) {
    this.commands = commands;
  }

  /** Removes a home left behind (a failed userdel, a crash) before a new user gets its name. */
  static void removeLeftoverHome(Path home) throws IOException {
    Trees.deleteNoFollow(home);
  }

  /** {@code ~/.ssh/authorized_keys} (0700/0600), written as the user itself. */
  void installKey(String user, Path home, String publicKey) throws IOException {
    Commands.Result written = commands.run(List.of("runuser", "-u", user, "--", "sh", "-c", INSTALL_KEY,
        "install-key", home.toString(), publicKey.strip()), TIMEOUT);
    if (!written.ok()) {
      throw new InstanceFailure(InstanceFailure.USER_SETUP_FAILED, "writing the key as " + user + ": "
          + written.summary());
    }
  }

  /** Whatever the tenant's UID still owns in shared places; best effort, each step on its own. */
  void sweep(String user, int uid) throws IOException {
    for (String dir : SHARED_DIRS) {
      if (Files.isDirectory(Path.of(dir))) {
        commands.run(List.of("find", dir, "-xdev", "-mindepth", "1", "-uid", Integer.toString(uid),
            "-delete"), TIMEOUT);
      }
    }
    for (var kind : IPC_KINDS.entrySet()) {
      for (String id : ipcIdsOwnedBy(kind.getKey(), uid)) {
        commands.run(List.of("ipcrm", kind.getValue(), id), TIMEOUT);
      }
    }
    // the user's crontab, where cron is installed (user names are checked: no path syntax)
    Files.deleteIfExists(Path.of("/var/spool/cron/crontabs", user));
  }

  /** The ids of the SysV IPC objects of one kind that the UID owns, from /proc/sysvipc. */
  static List<String> ipcIdsOwnedBy(String kind, int uid) throws IOException {
    Path table = Path.of("/proc/sysvipc", kind);
    if (!Files.isReadable(table)) {
      return List.of();
    }
    List<String> lines = Files.readAllLines(table);
    if (lines.isEmpty()) {
      return List.of();
    }
    List<String> header = List.of(lines.get(0).trim().split("\\s+"));
    int uidColumn = header.indexOf("uid");
    List<String> ids = new java.util.ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.trim().split("\\s+");
      if (uidColumn >= 0 && cells.length > uidColumn && cells[uidColumn].equals(Integer.toString(uid))) {
        ids.add(cells[1]);
      }
    }
    return ids;
  }
}
