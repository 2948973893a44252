package io.gpurental.gateway.operator.alerts;

import java.time.OffsetDateTime;
import java.util.List;

/** An incident as listed, with the notifications sent (or still to send) for it. */
record Incident(String id, String rule, String target, String status, OffsetDateTime openedAt,
    OffsetDateTime lastSeenAt, OffsetDateTime resolvedAt, String detailsJson, List<Delivery> deliveries) {

  /** One notification of one transition on one channel, with its attempts (the delivery log). */
  record Delivery(long id, String transition, String channel, String status, int attempts,
      OffsetDateTime nextAttemptAt, Integer lastStatusCode, String lastError, OffsetDateTime deliveredAt,
      List<Attempt> log) {}

  /** One attempt of a delivery. */
  record Attempt(int attempt, OffsetDateTime at, Integer statusCode, String error, OffsetDateTime nextAttemptAt) {}

  Incident withDeliveries(List<Delivery> list) {
    return new Incident(id, rule, target, status, openedAt, lastSeenAt, resolvedAt, detailsJson, list);
  }

  /** Open incidents sort first. */
  int rank() {
    return "open".equals(status) ? 1 : 0;
  }
}
