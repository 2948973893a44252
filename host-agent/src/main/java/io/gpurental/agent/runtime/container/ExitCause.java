package io.gpurental.agent.runtime.container;

import io.gpurental.agent.runtime.InstanceFailure;
import io.vertx.core.json.JsonObject;

/**
 * Whose doing a container's end was, read from the engine's record of it ({@code State} and
 * {@code HostConfig} of the inspect): the renter's ({@code instance_exited}) or the host's
 * ({@code runtime_error}). A container that exits while the engine keeps running was ended by its
 * own processes: its init forwards a signal sent from inside ({@code kill 1}), or its child was
 * killed from inside ({@code kill -9} of the SSH server: exit 137, the same code a SIGKILL from
 * outside gives, so 137 tells nothing), or it ran out of the memory limit it was given. The
 * host's are what only the host does: an engine error, an OOM without a memory limit of its own
 * (the host let it starve), a container that never ran or is gone, and any exit seen right after
 * the engine was unreachable (an engine restart stops every container). Host reboots, silent hosts
 * and faulty GPUs reach the gateway by their own paths (heartbeats, GPU health), not as exits.
 */
final class ExitCause {
  private static final java.util.Set<String> ENDED = java.util.Set.of("exited", "stopped");

  private ExitCause() {}

  /** The failure reason for a container found not running; {@code engineWasDown}: the last listing failed. */
  static String reasonOf(JsonObject inspected, boolean engineWasDown) {
    if (engineWasDown || inspected == null) {
      return InstanceFailure.RUNTIME_ERROR;
    }
    JsonObject state = inspected.getJsonObject("State", new JsonObject());
    // Podman's compatible API says "stopped" between the exit and its cleanup, then "exited"
    if (!ENDED.contains(state.getString("Status", "")) || !state.getString("Error", "").isBlank()) {
      return InstanceFailure.RUNTIME_ERROR;
    }
    if (state.getBoolean("OOMKilled", false)) {
      long limit = inspected.getJsonObject("HostConfig", new JsonObject()).getLong("Memory", 0L);
      return limit > 0 ? InstanceFailure.INSTANCE_EXITED : InstanceFailure.RUNTIME_ERROR;
    }
    return state.getInteger("ExitCode", -1) < 0 ? InstanceFailure.RUNTIME_ERROR : InstanceFailure.INSTANCE_EXITED;
  }

  /** The exit in words, for the agent's log. */
  static String describe(JsonObject inspected) {
    JsonObject state = inspected == null ? new JsonObject() : inspected.getJsonObject("State", new JsonObject());
    return "status " + state.getString("Status") + ", exit code " + state.getValue("ExitCode")
        + (state.getBoolean("OOMKilled", false) ? ", OOM-killed" : "")
        + (state.getString("Error", "").isBlank() ? "" : ", engine error: " + state.getString("Error"));
  }
}
