package io.gpurental.gateway.fleet;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * The clustered event-bus address on which the fleet announces every host status change, every
 * GPU health change and every change of a host's maintenance windows, so that every node can drop
 * what it derived from them (the catalog's cached searches).
 */
public final class HostChanges {
  public static final String ADDRESS = "fleet.host-status-changed";

  private HostChanges() {}

  /** The host's maintenance windows changed (its status did not): {@code status} is absent. */
  static void publishMaintenance(Vertx vertx, String hostId) {
    vertx.eventBus().publish(ADDRESS, new JsonObject().put("host_id", hostId).put("maintenance", true));
  }

  /** The host's image cache changed (its status did not): {@code images} is true. */
  static void publishImages(Vertx vertx, String hostId) {
    vertx.eventBus().publish(ADDRESS, new JsonObject().put("host_id", hostId).put("images", true));
  }

  static void publish(Vertx vertx, String hostId, String status) {
    vertx.eventBus().publish(ADDRESS, new JsonObject().put("host_id", hostId).put("status", status));
  }

  /** A GPU of the host changed health ({@code gpu_index}, {@code health}: healthy, degraded or faulty). */
  static void publishGpu(Vertx vertx, String hostId, int index, String health) {
    vertx.eventBus().publish(ADDRESS, new JsonObject().put("host_id", hostId).put("gpu_index", index)
        .put("health", health));
  }
}
