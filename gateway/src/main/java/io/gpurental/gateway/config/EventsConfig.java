package io.gpurental.gateway.config;

import java.time.Duration;

/**
 * The live event streams ({@code GET /api/v1/events}): how many may be open per account and in
 * all on one node, and how often each re-checks its credential (besides reacting at once when
 * a token is revoked, a session ends or a role changes).
 */
public record EventsConfig(int maxStreamsPerAccount, int maxStreamsPerNode, Duration credentialRecheck) {}
