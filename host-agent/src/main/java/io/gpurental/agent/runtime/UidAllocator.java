package io.gpurental.agent.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Hands out Unix UIDs for instance users that are never given twice: a tenant's files, IPC
 * objects or stray processes that outlive its instance must never belong to the next tenant.
 * The last UID given is kept in {@code <state-dir>/last-uid}; a UID that {@code /etc/passwd}
 * already uses is skipped, so a lost state directory cannot make it hand one out again while
 * its user exists.
 */
final class UidAllocator {
  static final int FIRST = 200_000;
  private static final int LAST = 999_999;

  private final Path file;
  private final Path passwd;

  UidAllocator(Path stateDir, Path passwd) {
    this.file = stateDir.resolve("last-uid");
    this.passwd = passwd;
  }

  /** Serialized: two instances starting at once get different UIDs. */
  synchronized int next() throws IOException {
    int candidate = Math.max(FIRST, Math.max(lastGiven(), highestInPasswd()) + 1);
    if (candidate > LAST) {
      throw new InstanceFailure(InstanceFailure.USER_SETUP_FAILED, "no UID left in " + FIRST + "-" + LAST);
    }
    Files.createDirectories(file.getParent());
    Path tmp = file.resolveSibling("last-uid.tmp");
    Files.writeString(tmp, Integer.toString(candidate));
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return candidate;
  }

  private int lastGiven() throws IOException {
    return Files.exists(file) ? Integer.parseInt(Files.readString(file).strip()) : 0;
  }

  private int highestInPasswd() throws IOException {
    int highest = 0;
    List<String> lines = Files.readAllLines(passwd);
    for (String line : lines) {
      String[] fields = line.split(":");
      if (fields.length > 2 && fields[2].matches("\\d{1,9}")) {
        int uid = Integer.parseInt(fields[2]);
        if (uid >= FIRST && uid <= LAST) {
          highest = Math.max(highest, uid);
        }
      }
    }
    return highest;
  }
}
