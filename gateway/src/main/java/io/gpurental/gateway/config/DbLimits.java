package io.gpurental.gateway.config;

import java.time.Duration;

/**
 * How long the gateway waits for PostgreSQL before answering 503: to connect, for a statement,
 * and for a free pool connection (with at most {@code poolWaitQueueSize} requests waiting).
 */
public record DbLimits(
    Duration connectTimeout, Duration statementTimeout, Duration poolWaitTimeout, int poolWaitQueueSize) {}
