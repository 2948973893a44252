package io.gpurental.agent.simulated;

import java.util.Map;
import java.util.Objects;

/**
 * How a simulated host misbehaves (the sandbox's test controls); {@link #HEALTHY} is none.
 *
 * @param heartbeatsStopped the agent sends no heartbeats (its long poll and reports go on)
 * @param gpus per GPU index, readings that replace the simulated ones
 * @param diskFreeGb replaces the free disk space, null for the simulated figure
 * @param diskHealth replaces SMART's verdict ({@code passed}/{@code failed}), null for {@code passed}
 * @param failProvisioning the next starts fail with this reason, null for none
 * @param provisioningDelayMs starts take this long instead of the usual delay, null for the usual
 * @param provisioningHeld starts do not finish until released (this becomes false)
 */
public record Faults(boolean heartbeatsStopped, Map<Integer, GpuFault> gpus, Double diskFreeGb, String diskHealth,
    FailProvisioning failProvisioning, Long provisioningDelayMs, boolean provisioningHeld) {

  public static final Faults HEALTHY = new Faults(false, Map.of(), null, null, null, null, false);

  public Faults {
    gpus = Map.copyOf(gpus);
  }

  /** Readings reported for one GPU instead of the simulated ones; a null field keeps the simulated value. */
  public record GpuFault(Long temperatureC, Long eccUncorrected, Boolean remappedRowsFailure) {
    public boolean empty() {
      return temperatureC == null && eccUncorrected == null && remappedRowsFailure == null;
    }
  }

  /** The next {@code remaining} starts fail with {@code reason} (a protocol reason). */
  public record FailProvisioning(String reason, int remaining) {
    public FailProvisioning {
      Objects.requireNonNull(reason);
    }
  }
}
