package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.errors.Conflict;
import java.util.Map;
import java.util.Set;

/**
 * The one state machine of an instance as its agent reports it: {@code preparing} → ({@code
 * pulling} its image →) {@code running} → {@code stopped}, or {@code failed}. A report may repeat (agents re-report after a restart);
 * an instance never goes back (a stopped one does not run again).
 */
final class InstanceLifecycle {
  static final String PREPARING = "preparing";
  static final String PULLING = "pulling";
  static final String RUNNING = "running";
  static final String STOPPED = "stopped";
  static final String FAILED = "failed";
  private static final Set<String> ANY = Set.of(PREPARING, PULLING, RUNNING, STOPPED, FAILED);
  private static final Map<String, Set<String>> MOVES = Map.of(
      PREPARING, ANY,
      // a pull goes on (progress) until the container runs or the pull fails; stopped: taken away meanwhile
      PULLING, Set.of(PULLING, RUNNING, FAILED, STOPPED),
      RUNNING, Set.of(RUNNING, STOPPED, FAILED),
      FAILED, Set.of(FAILED, STOPPED),
      STOPPED, Set.of(STOPPED));

  private InstanceLifecycle() {}

  /** Refuses a report the table does not list; {@code from} is null before the first report. */
  static void check(String reservationId, String from, String to) {
    if (from != null && !MOVES.get(from).contains(to)) {
      throw new Conflict("Instance " + reservationId + " is " + from + " and cannot become " + to + ".");
    }
  }
}
