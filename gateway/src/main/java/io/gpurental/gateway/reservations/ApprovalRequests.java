package io.gpurental.gateway.reservations;

import io.vertx.core.json.JsonObject;

/**
 * Told, after commit, of each new reservation that waits for its owner's approval (the API's
 * JSON of it), e.g. to e-mail the owner. Registered by a feature above reservations.
 */
@FunctionalInterface
public interface ApprovalRequests {
  void requested(JsonObject reservation);
}
