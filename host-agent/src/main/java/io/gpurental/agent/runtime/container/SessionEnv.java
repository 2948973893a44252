package io.gpurental.agent.runtime.container;

import io.vertx.core.json.JsonArray;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The environment of a renter's SSH session: the container's as the engine reports it after the
 * start (the image's {@code ENV} and what the engine added, on Podman the CDI spec's GPU variables),
 * as a file of {@code export} lines that the login wrapper sources. dropbear empties the environment
 * of every session, so without this a login would see neither. Written by the agent from the
 * engine's answer alone, never read from inside the container.
 */
final class SessionEnv {
  /** Set per session by dropbear or the renter's terminal: the container's value would be wrong. */
  private static final Set<String> SESSION_OWN = Set.of("HOME", "USER", "LOGNAME", "SHELL", "TERM", "PWD",
      "SHLVL", "_");
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private SessionEnv() {
  }

  /** {@code env}: the engine's {@code Config.Env} ({@code KEY=value} strings). */
  static String render(JsonArray env) {
    StringBuilder file = new StringBuilder("# the instance's environment, written by the host agent\n");
    for (Object o : env == null ? new JsonArray() : env) {
      String entry = String.valueOf(o);
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String key = entry.substring(0, eq);
      String value = entry.substring(eq + 1);
      boolean ours = key.equals("LD_LIBRARY_PATH") && value.equals(SshBundle.LIBRARY_PATH);
      if (!NAME.matcher(key).matches() || SESSION_OWN.contains(key) || key.startsWith("SSH_") || ours) {
        continue;
      }
      file.append("export ").append(key).append('=').append(quote(value)).append('\n');
    }
    return file.toString();
  }

  /** Single quotes for any POSIX shell; a quote inside becomes '\''. */
  static String quote(String value) {
    return "'" + value.replace("'", "'\\''") + "'";
  }
}
