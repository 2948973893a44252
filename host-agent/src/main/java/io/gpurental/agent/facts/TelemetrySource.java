package io.gpurental.agent.facts;

import java.io.IOException;

/** Where heartbeats' telemetry comes from: this machine, or a simulated host. Blocking. */
public interface TelemetrySource {

  /** One heartbeat's telemetry (without {@code rtt_ms}, which the agent adds). Worker threads only. */
  Telemetry collect() throws IOException;

  /** Slow checks whose result {@link #collect()} reuses (SMART); run rarely, off the heartbeat. */
  default void refreshRarely() {
  }
}
