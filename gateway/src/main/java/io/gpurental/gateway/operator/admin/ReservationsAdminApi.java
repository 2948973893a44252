package io.gpurental.gateway.operator.admin;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.QueryNumbers;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * {@code /operator/reservations}: every renter's reservations with filters, and a manual refund or
 * credit of one (through the payments feature's refund path).
 */
final class ReservationsAdminApi {
  private static final int DEFAULT_LIMIT = 20;
  private final AdminRepository repository;
  private final Payments payments;

  ReservationsAdminApi(AdminRepository repository, Payments payments) {
    this.repository = repository;
    this.payments = payments;
  }

  void bind(RouterBuilder api) {
    api.getRoute("listOperatorReservations").addHandler(this::list);
    api.getRoute("refundReservationManually").addHandler(this::refund);
  }

  private void list(RoutingContext ctx) {
    int limit = QueryNumbers.limit(ctx, DEFAULT_LIMIT);
    Optional<Page.Position> after = Optional.ofNullable(ctx.request().getParam("cursor")).map(Page::decode);
    AdminRepository.Filter filter = new AdminRepository.Filter(ctx.request().getParam("status"),
        ctx.request().getParam("account_id"), ctx.request().getParam("host_id"), time(ctx, "from"), time(ctx, "to"));
    repository.reservations(filter, after, limit)
        .onSuccess(found -> ctx.json(Page.of(found, limit, ReservationsAdminApi::json,
            r -> Page.encode(r.createdAt(), r.id()))))
        .onFailure(ctx::fail);
  }

  private void refund(RoutingContext ctx) {
    JsonObject body = ctx.body().asJsonObject();
    String reservationId = ctx.pathParam("reservation_id");
    Payments.ManualRefund request = new Payments.ManualRefund(reservationId, body.getString("kind"),
        body.getLong("amount"), body.getString("currency"), body.getString("reason").trim(),
        Principal.required(ctx).accountId(), ctx.request().getHeader("Idempotency-Key"));
    repository.reservation(reservationId)
        .compose(found -> {
          if (found.isEmpty()) {
            throw new NotFound("No reservation " + reservationId + ".");
          }
          return payments.refundManually(request);
        })
        .onSuccess(done -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
            .end(json(done).encode()))
        .onFailure(ctx::fail);
  }

  private static OffsetDateTime time(RoutingContext ctx, String name) {
    String value = ctx.request().getParam(name);
    try {
      return value == null ? null : OffsetDateTime.parse(value);
    } catch (DateTimeParseException e) {
      throw new Invalid(name + " is not an RFC 3339 time", List.of(new Invalid.FieldError("#/" + name,
          "use e.g. 2026-12-01T09:00:00Z")));
    }
  }

  private static JsonObject json(AdminRepository.Listed r) {
    return new JsonObject()
        .put("id", r.id())
        .put("account", new JsonObject().put("id", r.accountId()).put("display_name", r.displayName())
            .put("primary_email", r.primaryEmail()).put("suspended", r.suspended()))
        .put("host_id", r.hostId())
        .put("offer_id", r.offerId())
        .put("gpu_count", r.gpuCount())
        .put("start", r.start().toInstant().toString())
        .put("end", r.end().toInstant().toString())
        .put("status", r.status())
        .put("payment_method", r.paymentMethod())
        .put("total", new Money(r.total(), r.currency()).toJson())
        .put("paid", new Money(r.paid(), r.currency()).toJson())
        .put("refunded", new Money(r.refunded(), r.currency()).toJson())
        .put("refundable", new Money(Math.max(0, r.paid() - r.refunded()), r.currency()).toJson())
        .put("created_at", r.createdAt().toInstant().toString());
  }

  private static JsonObject json(Payments.RefundRequest request) {
    return new JsonObject()
        .put("id", request.id())
        .put("reservation_id", request.reservationId())
        .put("kind", request.kind())
        .put("amount", request.amount().toJson())
        .put("reason", request.note())
        .put("requested_by", request.requestedBy())
        .put("created_at", request.createdAt().toString())
        .put("refunds", new JsonArray(request.refunds()));
  }
}
