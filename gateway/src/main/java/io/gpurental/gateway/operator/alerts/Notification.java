package io.gpurental.gateway.operator.alerts;

import java.time.OffsetDateTime;

/**
 * One delivery to send: an incident's transition on one channel, and which attempt this is.
 *
 * @param at when the incident opened or resolved (the transition's time)
 */
record Notification(long deliveryId, String channel, int attempt, String incidentId, String rule, String target,
    String transition, OffsetDateTime at, String detailsJson) {}
