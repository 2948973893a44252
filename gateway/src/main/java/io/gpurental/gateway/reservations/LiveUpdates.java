package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * {@code GET /events}: a Server-Sent Events stream of the caller's reservation changes (all of
 * them for operators), fed by the clustered event bus, so a change made on any node reaches a
 * client connected to any other.
 */
final class LiveUpdates {
  private static final long HEARTBEAT_MS = 15_000;
  private final Vertx vertx;

  LiveUpdates(Vertx vertx) {
    this.vertx = vertx;
  }

  void bind(RouterBuilder api) {
    api.getRoute("streamEvents").addHandler(this::stream);
  }

  private void stream(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    HttpServerResponse response = ctx.response()
        .putHeader("Content-Type", "text/event-stream; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        // compression would hold events back in its buffer
        .putHeader("Content-Encoding", "identity")
        .putHeader("X-Accel-Buffering", "no")
        .setChunked(true);
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(ReservationEvents.ADDRESS, message -> {
      JsonObject change = message.body();
      if (response.ended()) {
        return;
      }
      if (response.writeQueueFull()) {
        // a client that does not read is dropped (it reconnects) rather than buffered without end
        response.end();
      } else if (caller.isOperator() || caller.accountId().equals(change.getString("account_id"))) {
        response.write("event: reservation\ndata: " + new JsonObject()
            .put("reservation_id", change.getString("reservation_id"))
            .put("status", change.getString("status")).encode() + "\n\n");
      }
    });
    long heartbeat = vertx.setPeriodic(HEARTBEAT_MS, id -> {
      if (!response.ended()) {
        response.write(": keep-alive\n\n");
      }
    });
    response.closeHandler(v -> {
      vertx.cancelTimer(heartbeat);
      consumer.unregister();
    });
    // a draining node ends its streams at once, so clients reconnect (to another node) instead of
    // holding the shutdown for the whole drain timeout
    ctx.request().connection().shutdownHandler(v -> {
      if (!response.ended()) {
        response.end();
      }
    });
    consumer.completion().onSuccess(v -> response.write(": connected\n\n"));
  }
}
