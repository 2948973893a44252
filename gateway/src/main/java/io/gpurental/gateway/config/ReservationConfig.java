package io.gpurental.gateway.config;

import java.time.Duration;

/**
 * The reservation lifecycle: how long unpaid GPUs are held, what cancelling after the start
 * costs, how often the scheduler starts and ends windows, and (sandbox) how long the simulated
 * host takes to bring an instance up.
 */
public record ReservationConfig(Duration hold, int cancellationFeeBps, Duration schedulerInterval,
    Duration sandboxInstanceReadyAfter) {}
