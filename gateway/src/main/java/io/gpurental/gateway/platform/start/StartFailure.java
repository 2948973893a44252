package io.gpurental.gateway.platform.start;

/**
 * A node's start failed in a named step: "starting: joining the cluster: Timeout (gave up after 3
 * tries in 61 s)". An {@link IllegalStateException}, so the start is reported in one line; the cause
 * keeps the detail.
 */
public final class StartFailure extends IllegalStateException {
  private final String step;

  public StartFailure(String step, String detail, Throwable cause) {
    super("starting: " + step + ": " + detail, cause);
    this.step = step;
  }

  /** The step that failed, e.g. "seeding the demo fleet". */
  public String step() {
    return step;
  }

  /** The first {@link StartFailure} in {@code failure}'s causes, if any. */
  public static StartFailure in(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof StartFailure start) {
        return start;
      }
    }
    return null;
  }
}
