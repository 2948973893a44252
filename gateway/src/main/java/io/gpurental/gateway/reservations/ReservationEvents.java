package io.gpurental.gateway.reservations;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/** Reservation state changes on the clustered event bus (for live updates on any node). */
public final class ReservationEvents {
  public static final String ADDRESS = "reservations.changed";

  private ReservationEvents() {}

  public static void publish(Vertx vertx, String reservationId, String accountId, String status) {
    vertx.eventBus().publish(ADDRESS, new JsonObject().put("reservation_id", reservationId)
        .put("account_id", accountId).put("status", status));
  }
}
