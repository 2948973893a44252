package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.errors.Conflict;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one state machine of a host. Every status change goes through {@link #sourcesOf}: the
 * repository moves a host only from a status listed here, in SQL, so a refused move changes
 * nothing even when two nodes race.
 */
public final class HostLifecycle {
  public static final String ENROLLING = "enrolling";
  public static final String PENDING = "pending";
  public static final String ACTIVE = "active";
  public static final String DEGRADED = "degraded";
  public static final String OFFLINE = "offline";
  public static final String DEACTIVATED = "deactivated";

  /** Each status and the statuses it may move to. */
  private static final Map<String, Set<String>> MOVES = Map.of(
      ENROLLING, Set.of(PENDING),                  // the agent enrolled with the one-time token
      PENDING, Set.of(ACTIVE),                     // the operator activated it
      ACTIVE, Set.of(OFFLINE, DEACTIVATED, DEGRADED), // heartbeats stopped; the operator took it out; a health rule
      DEGRADED, Set.of(ACTIVE, OFFLINE, DEACTIVATED), // clean for the clean period; heartbeats stopped; taken out
      OFFLINE, Set.of(ACTIVE, DEACTIVATED),        // heartbeats resumed; the operator took it out
      DEACTIVATED, Set.of(ACTIVE));                // the operator brought it back

  private HostLifecycle() {}

  public static boolean allows(String from, String to) {
    return MOVES.getOrDefault(from, Set.of()).contains(to);
  }

  /** The statuses from which a host may move to {@code to}. */
  public static String[] sourcesOf(String to) {
    return MOVES.entrySet().stream().filter(move -> move.getValue().contains(to)).map(Map.Entry::getKey)
        .sorted().toArray(String[]::new);
  }

  /** Refuses a move the table does not list, as a 409 naming both statuses. */
  public static void check(String hostId, String from, String to) {
    if (!allows(from, to)) {
      throw new Conflict("Host " + hostId + " is " + from + " and cannot become " + to
          + " (from " + from + " it can become " + String.join(" or ", List.copyOf(MOVES.getOrDefault(from, Set.of())))
          + ").");
    }
  }
}
