package io.gpurental.gateway.operator;

import io.gpurental.gateway.platform.QueryNumbers;
import io.gpurental.gateway.platform.audit.AuditRepository;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

/** {@code GET /operator/audit}: who changed what, when, from what to what; newest first. */
final class AuditApi {
  private static final int DEFAULT_LIMIT = 20; // the contract's default
  private final Pool pool;

  AuditApi(Pool pool) {
    this.pool = pool;
  }

  void bind(RouterBuilder api) {
    api.getRoute("listAudit").addHandler(this::list);
  }

  private void list(RoutingContext ctx) {
    AuditRepository.Filter filter = new AuditRepository.Filter(param(ctx, "actor"), param(ctx, "action"),
        param(ctx, "target"), time(ctx, "from"), time(ctx, "to"));
    Long limit = QueryNumbers.wholeNumber(ctx, "limit");
    AuditRepository.page(pool, filter, param(ctx, "cursor"), limit == null ? DEFAULT_LIMIT : Math.toIntExact(limit))
        .onSuccess(page -> {
          JsonArray data = new JsonArray();
          page.entries().forEach(entry -> data.add(new JsonObject().put("id", "aud_" + entry.id())
              .put("at", entry.at().toInstant().toString()).put("actor", entry.actor()).put("action", entry.action())
              .put("target", entry.target()).put("before", entry.before()).put("after", entry.after())));
          ctx.json(new JsonObject().put("data", data).put("next_cursor", page.nextCursor()));
        })
        .onFailure(ctx::fail);
  }

  private static String param(RoutingContext ctx, String name) {
    String value = ctx.request().getParam(name);
    return value == null || value.isBlank() ? null : value;
  }

  private static OffsetDateTime time(RoutingContext ctx, String name) {
    String value = param(ctx, name);
    try {
      return value == null ? null : OffsetDateTime.parse(value);
    } catch (DateTimeParseException e) {
      throw new Invalid(name + " is not an RFC 3339 date-time.",
          List.of(new Invalid.FieldError("#/" + name, "use e.g. 2026-12-01T09:00:00Z")));
    }
  }
}
