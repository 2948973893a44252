package io.gpurental.gateway.operator;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.fleet.Maintenance;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * {@code /operator/hosts/{host_id}/maintenance…}: planning, listing and cancelling a host's
 * maintenance windows through the fleet's {@link Maintenance} port (which lists the reservations a
 * window overlaps before it saves anything).
 */
final class MaintenanceApi {
  private final Maintenance maintenance;

  MaintenanceApi(Maintenance maintenance) {
    this.maintenance = maintenance;
  }

  void bind(RouterBuilder api) {
    api.getRoute("scheduleMaintenance").addHandler(this::schedule);
    api.getRoute("listMaintenanceWindows").addHandler(ctx -> maintenance.inForce(ctx.pathParam("host_id"))
        .onSuccess(windows -> {
          JsonArray data = new JsonArray();
          windows.forEach(window -> data.add(json(window)));
          ctx.json(new JsonObject().put("data", data).putNull("next_cursor"));
        }).onFailure(ctx::fail));
    api.getRoute("cancelMaintenance").addHandler(ctx -> maintenance.cancel(ctx.pathParam("host_id"),
            ctx.pathParam("maintenance_id"), actor(ctx))
        .onSuccess(window -> ctx.json(json(window))).onFailure(ctx::fail));
  }

  private void schedule(RoutingContext ctx) {
    JsonObject body = ctx.body().asJsonObject();
    Maintenance.NewWindow asked = new Maintenance.NewWindow(ctx.pathParam("host_id"), time(body, "starts_at"),
        time(body, "ends_at"), body.getBoolean("drain", false), body.getString("reason").trim());
    boolean dryRun = "true".equals(ctx.request().getParam("dry_run"));
    maintenance.schedule(asked, body.getBoolean("acknowledge_overlaps", false), dryRun, actor(ctx))
        .onSuccess(outcome -> {
          JsonArray overlaps = new JsonArray();
          outcome.overlaps().forEach(overlap -> overlaps.add(overlap.toJson()));
          JsonObject answer = new JsonObject()
              .put("maintenance", outcome.window() == null ? null : json(outcome.window()))
              .put("overlapping_reservations", overlaps);
          ctx.response().setStatusCode(dryRun ? 200 : 201).putHeader("Content-Type", "application/json")
              .end(answer.encode());
        })
        .onFailure(ctx::fail);
  }

  static JsonObject json(Maintenance.Window window) {
    return new JsonObject().put("id", window.id()).put("host_id", window.hostId())
        .put("starts_at", window.startsAt().toInstant().toString()).put("ends_at", window.endsAt().toInstant().toString())
        .put("drain", window.drain()).put("reason", window.reason()).put("created_by", window.createdBy())
        .put("created_at", window.createdAt().toInstant().toString())
        .put("cancelled_at", window.cancelledAt() == null ? null : window.cancelledAt().toInstant().toString());
  }

  private static OffsetDateTime time(JsonObject body, String field) {
    try {
      return OffsetDateTime.parse(body.getString(field));
    } catch (DateTimeParseException e) {
      throw new Invalid(field + " is not an RFC 3339 time.",
          List.of(new Invalid.FieldError("#/" + field, "an RFC 3339 time, e.g. 2026-12-01T09:00:00Z")));
    }
  }

  private static String actor(RoutingContext ctx) {
    return "account:" + Principal.required(ctx).accountId();
  }
}
