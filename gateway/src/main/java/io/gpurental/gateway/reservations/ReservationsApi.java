package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.platform.QueryNumbers;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.Problem;
import io.gpurental.gateway.platform.http.ProblemRecorder;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/** {@code /reservations}: create (from a quote, or quoted on the spot), list, read, cancel, extend. */
final class ReservationsApi {
  private static final int DEFAULT_LIMIT = 20;
  private final Bookings bookings;

  ReservationsApi(Bookings bookings) {
    this.bookings = bookings;
  }

  void bind(RouterBuilder api) {
    api.getRoute("createReservation").addHandler(this::create);
    api.getRoute("listReservations").addHandler(ctx -> bookings.list(Principal.required(ctx),
            ctx.request().getParam("status"), ctx.request().getParam("cursor"), QueryNumbers.limit(ctx, DEFAULT_LIMIT))
        .onSuccess(ctx::json).onFailure(ctx::fail));
    api.getRoute("getReservation").addHandler(ctx -> bookings.get(Principal.required(ctx),
        ctx.pathParam("reservation_id")).onSuccess(ctx::json).onFailure(ctx::fail));
    api.getRoute("cancelReservation").addHandler(ctx -> bookings.cancel(Principal.required(ctx),
        ctx.pathParam("reservation_id")).onSuccess(ctx::json).onFailure(ctx::fail));
    api.getRoute("extendReservation").addHandler(this::extend);
    api.getRoute("approveReservation").addHandler(ctx -> bookings.approve(Principal.required(ctx),
        ctx.pathParam("reservation_id")).onSuccess(ctx::json).onFailure(ctx::fail));
    api.getRoute("declineReservation").addHandler(ctx -> bookings.decline(Principal.required(ctx),
        ctx.pathParam("reservation_id")).onSuccess(ctx::json).onFailure(ctx::fail));
  }

  private void create(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    bookings.create(caller, ctx.body().asJsonObject(), idempotencyKey(ctx, caller),
            recorder -> ProblemRecorder.attach(ctx, recorder))
        .onSuccess(answer -> respond(ctx, answer))
        .onFailure(ctx::fail);
  }

  private void extend(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    JsonObject body = ctx.body().asJsonObject();
    bookings.extend(caller, ctx.pathParam("reservation_id"), body.getInteger("hours"), body.getString("payment"),
            idempotencyKey(ctx, caller), recorder -> ProblemRecorder.attach(ctx, recorder))
        .onSuccess(answer -> respond(ctx, answer))
        .onFailure(ctx::fail);
  }

  private static String idempotencyKey(RoutingContext ctx, Principal caller) {
    String key = ctx.request().getHeader("Idempotency-Key");
    if (key == null && caller.method() == Principal.Method.TOKEN) {
      throw new Invalid("API clients must send an Idempotency-Key header with each reservation or extension, so a"
          + " retry never books or charges twice.");
    }
    if (key != null && (key.isBlank() || key.length() > 255)) {
      throw new Invalid("Idempotency-Key must be 1 to 255 characters.");
    }
    return key;
  }

  private static void respond(RoutingContext ctx, Bookings.Answer answer) {
    String type = answer.failed() ? Problem.MEDIA_TYPE : "application/json";
    ctx.response().setStatusCode(answer.status()).putHeader("Content-Type", type).end(answer.body());
  }
}
