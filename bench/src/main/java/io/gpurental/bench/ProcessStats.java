package io.gpurental.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's resident memory and CPU time, from /proc (Linux). */
final class ProcessStats {
  /** Linux's USER_HZ, the unit of utime and stime in /proc/PID/stat, on every usual kernel. */
  private static final double TICKS_PER_SECOND = 100.0;

  private ProcessStats() {}

  /** Resident set size in MiB (VmRSS), or -1 when it cannot be read. */
  static double rssMiB(long pid) {
    try {
      return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmRSS:"))
          .findFirst().map(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1024.0).orElse(-1.0);
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  /** User plus system CPU seconds the process has used so far, or -1. */
  static double cpuSeconds(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      // the command name may hold spaces: the fields after it start behind its closing parenthesis
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
