package io.gpurental.gateway.config;

import java.time.Duration;

/**
 * The fleet's health rules ({@code fleet.health}): a GPU above {@code gpuTemperatureLimitC} for
 * {@code gpuTemperatureSamples} samples in a row is degraded; a host with less than
 * {@code diskFreeMinGb} free is degraded; either returns to healthy only after
 * {@code cleanPeriod} without a violation.
 */
public record HealthConfig(int gpuTemperatureLimitC, int gpuTemperatureSamples, int diskFreeMinGb,
    Duration cleanPeriod) {}
