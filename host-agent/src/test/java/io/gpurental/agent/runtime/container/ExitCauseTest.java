package io.gpurental.agent.runtime.container;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.agent.runtime.InstanceFailure;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** Whose doing an exit was, from the engine's inspect: the renter's only when their own process ended it. */
class ExitCauseTest {
  private static final String RENTER = InstanceFailure.INSTANCE_EXITED;
  private static final String HOST = InstanceFailure.RUNTIME_ERROR;

  @Test
  void anExitOnItsOwnIsTheRenters() {
    assertEquals(RENTER, ExitCause.reasonOf(exited(0, false, 0), false), "the command returned");
    assertEquals(RENTER, ExitCause.reasonOf(exited(143, false, 0), false), "init forwarded a TERM from inside");
    assertEquals(RENTER, ExitCause.reasonOf(exited(1, false, 0).put("State", state("stopped", 1, false)), false),
        "Podman's 'stopped' before cleanup");
    assertEquals(RENTER, ExitCause.reasonOf(exited(137, true, 256L << 20), false), "OOM within its own limit");
    assertEquals(RENTER, ExitCause.reasonOf(exited(137, false, 256L << 20), false),
        "its SSH server SIGKILLed from inside: 137, as from outside");
  }

  @Test
  void whatOnlyTheHostCanDoIsTheHosts() {
    assertEquals(HOST, ExitCause.reasonOf(exited(137, true, 0), false), "OOM without a limit of its own: the host's");
    assertEquals(HOST, ExitCause.reasonOf(exited(0, false, 0), true), "right after the engine was unreachable");
    assertEquals(HOST, ExitCause.reasonOf(null, false), "gone");
    JsonObject engineError = exited(1, false, 0);
    engineError.getJsonObject("State").put("Error", "OCI runtime error");
    assertEquals(HOST, ExitCause.reasonOf(engineError, false));
    assertEquals(HOST, ExitCause.reasonOf(exited(0, false, 0).put("State", state("created", 0, false)), false),
        "never ran");
  }

  private static JsonObject exited(int code, boolean oom, long memory) {
    return new JsonObject().put("State", state("exited", code, oom))
        .put("HostConfig", new JsonObject().put("Memory", memory));
  }

  private static JsonObject state(String status, int code, boolean oom) {
    return new JsonObject().put("Status", status).put("ExitCode", code).put("OOMKilled", oom).put("Error", "");
  }
}
