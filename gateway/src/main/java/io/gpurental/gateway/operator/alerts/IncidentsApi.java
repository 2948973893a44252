package io.gpurental.gateway.operator.alerts;

import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.QueryNumbers;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/** {@code GET /operator/incidents}: incidents, open first, with each notification's delivery log. */
final class IncidentsApi {
  private static final int DEFAULT_LIMIT = 50;
  private final IncidentListRepository incidents;

  IncidentsApi(IncidentListRepository incidents) {
    this.incidents = incidents;
  }

  void bind(RouterBuilder api) {
    api.getRoute("listIncidents").addHandler(this::list);
  }

  private void list(RoutingContext ctx) {
    int limit = QueryNumbers.limit(ctx, DEFAULT_LIMIT);
    Optional<String> status = Optional.ofNullable(ctx.request().getParam("status"));
    Optional<IncidentListRepository.After> after = Optional.ofNullable(ctx.request().getParam("cursor"))
        .map(IncidentsApi::after);
    incidents.page(status, after, limit + 1)
        .map(rows -> Page.of(rows, limit, IncidentsApi::json,
            incident -> Page.encode(incident.openedAt(), incident.rank() + ":" + incident.id())))
        .onSuccess(ctx::json)
        .onFailure(ctx::fail);
  }

  private static IncidentListRepository.After after(String cursor) {
    Page.Position position = Page.decode(cursor);
    String[] parts = position.id().split(":", 2);
    if (parts.length != 2 || !parts[0].matches("[01]")) {
      throw new Invalid("cursor is not one this API returned", List.of(new Invalid.FieldError("#/cursor",
          "use the next_cursor of the previous page")));
    }
    return new IncidentListRepository.After(Integer.parseInt(parts[0]), position.createdAt(), parts[1]);
  }

  static JsonObject json(Incident incident) {
    JsonArray deliveries = new JsonArray();
    incident.deliveries().forEach(d -> deliveries.add(json(d)));
    return new JsonObject()
        .put("id", incident.id())
        .put("rule", incident.rule())
        .put("target", incident.target())
        .put("status", incident.status())
        .put("opened_at", time(incident.openedAt()))
        .put("last_seen_at", time(incident.lastSeenAt()))
        .put("resolved_at", time(incident.resolvedAt()))
        .put("details", new JsonObject(incident.detailsJson()))
        .put("deliveries", deliveries);
  }

  private static JsonObject json(Incident.Delivery d) {
    JsonArray log = new JsonArray();
    d.log().forEach(a -> log.add(new JsonObject().put("attempt", a.attempt()).put("at", time(a.at()))
        .put("status_code", a.statusCode()).put("error", a.error()).put("next_attempt_at", time(a.nextAttemptAt()))));
    return new JsonObject()
        .put("transition", d.transition())
        .put("channel", d.channel())
        .put("status", d.status())
        .put("attempts", d.attempts())
        .put("next_attempt_at", "pending".equals(d.status()) ? time(d.nextAttemptAt()) : null)
        .put("last_status_code", d.lastStatusCode())
        .put("last_error", d.lastError())
        .put("delivered_at", time(d.deliveredAt()))
        .put("log", log);
  }

  private static String time(OffsetDateTime at) {
    return at == null ? null : at.toInstant().toString();
  }
}
