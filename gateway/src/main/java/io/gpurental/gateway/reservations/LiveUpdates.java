package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.CredentialEvents;
import io.gpurental.gateway.auth.Credentials;
import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.config.EventsConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code GET /events}: a Server-Sent Events stream of the caller's reservation changes (all of
 * them for operators), fed by the clustered event bus, so a change made on any node reaches a
 * client connected to any other. A stream lives only as long as its credential: it ends within
 * moments of the token being revoked, the session signing out or the account losing a role
 * (announced by auth on the event bus), and re-checks the credential periodically besides.
 * Streams are capped per account and per node.
 */
final class LiveUpdates {
  private static final long HEARTBEAT_MS = 15_000;
  private final Vertx vertx;
  private final Credentials credentials;
  private final StreamSlots slots;
  private final long recheckMs;

  LiveUpdates(Vertx vertx, Credentials credentials, EventsConfig config) {
    this.vertx = vertx;
    this.credentials = credentials;
    this.slots = new StreamSlots(config.maxStreamsPerAccount(), config.maxStreamsPerNode());
    this.recheckMs = config.credentialRecheck().toMillis();
  }

  void bind(RouterBuilder api) {
    api.getRoute("streamEvents").addHandler(this::stream);
  }

  private void stream(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    Credentials.Credential credential = credentials.of(ctx);
    slots.acquire(caller.accountId());
    HttpServerResponse response = ctx.response()
        .putHeader("Content-Type", "text/event-stream; charset=utf-8")
        .putHeader("Cache-Control", "no-store")
        // compression would hold events back in its buffer
        .putHeader("Content-Encoding", "identity")
        .putHeader("X-Accel-Buffering", "no")
        .setChunked(true);
    MessageConsumer<JsonObject> changes = vertx.eventBus().consumer(ReservationEvents.ADDRESS, message -> {
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
    Runnable recheck = () -> credentials.stillValid(credential).onSuccess(valid -> {
      if (!valid && !response.ended()) {
        response.end("event: closed\ndata: {\"reason\":\"credential_changed\"}\n\n");
      }
    });
    MessageConsumer<JsonObject> credentialChanges = vertx.eventBus().consumer(CredentialEvents.ADDRESS, message -> {
      if (caller.accountId().equals(message.body().getString(CredentialEvents.ACCOUNT_ID))) {
        recheck.run();
      }
    });
    long heartbeat = vertx.setPeriodic(HEARTBEAT_MS, id -> {
      if (!response.ended()) {
        response.write(": keep-alive\n\n");
      }
    });
    long rechecks = vertx.setPeriodic(recheckMs, id -> recheck.run());
    AtomicBoolean released = new AtomicBoolean();
    Runnable release = () -> {
      if (released.compareAndSet(false, true)) {
        vertx.cancelTimer(heartbeat);
        vertx.cancelTimer(rechecks);
        changes.unregister();
        credentialChanges.unregister();
        slots.release(caller.accountId());
      }
    };
    // ended by us (the connection may stay open for the next request) or closed by the client
    response.endHandler(v -> release.run());
    response.closeHandler(v -> release.run());
    // a draining node ends its streams at once, so clients reconnect (to another node) instead of
    // holding the shutdown for the whole drain timeout
    ctx.request().connection().shutdownHandler(v -> {
      if (!response.ended()) {
        response.end();
      }
    });
    Future.all(changes.completion(), credentialChanges.completion())
        .onSuccess(v -> response.write(": connected\n\n"));
  }
}
