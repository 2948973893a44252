package io.gpurental.agent.runtime;

import java.util.Set;

/** An instance could not be started; {@link #reason()} is one of the protocol's fixed reasons. */
public final class InstanceFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;
  public static final String GPU_UNAVAILABLE = "gpu_unavailable";
  public static final String USER_SETUP_FAILED = "user_setup_failed";
  public static final String SSHD_FAILED = "sshd_failed";
  public static final String RUNTIME_ERROR = "runtime_error";
  public static final String TIMEOUT = "timeout";
  /** The pull failed or the image cannot run the supplied sshd (Fleet III). */
  public static final String IMAGE_UNAVAILABLE = "image_unavailable";
  /**
   * The instance's own process ended it: its command exited, its init was signalled from inside, or
   * it ran out of its own memory limit. The renter's doing, not the host's: the gateway ends the
   * reservation as a cancellation at that moment would.
   */
  public static final String INSTANCE_EXITED = "instance_exited";
  /**
   * The renter's own image is larger than this host pulls for a renter (the agent's
   * {@code --max-pull-gb}): the pull was stopped. The renter's doing, like {@link #INSTANCE_EXITED}.
   */
  public static final String IMAGE_TOO_LARGE = "image_too_large";
  public static final Set<String> REASONS = Set.of(GPU_UNAVAILABLE, USER_SETUP_FAILED, SSHD_FAILED,
      RUNTIME_ERROR, TIMEOUT, IMAGE_UNAVAILABLE, INSTANCE_EXITED, IMAGE_TOO_LARGE);
  /** The reasons that are the renter's doing, not the host's: the gateway does not refund them as host failures. */
  public static final Set<String> RENTERS_DOING = Set.of(INSTANCE_EXITED, IMAGE_TOO_LARGE);

  private final String reason;

  public InstanceFailure(String reason, String message) {
    super(message);
    if (!REASONS.contains(reason)) {
      throw new IllegalArgumentException("not a protocol failure reason: " + reason);
    }
    this.reason = reason;
  }

  public String reason() {
    return reason;
  }

  /** The reason to report for any failure of a start. */
  public static String reasonOf(Throwable t) {
    return t instanceof InstanceFailure f ? f.reason : RUNTIME_ERROR;
  }
}
