package io.gpurental.gateway.config;

/** Cluster-wide abuse limits. */
public record RateLimitConfig(int signInsPerMinute, int tokenCreationsPerHour, int writesPerMinute,
    int agentPollsPerMinute) {}
