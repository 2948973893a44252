package io.gpurental.gateway.payments;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.payments.PaymentRepository.ListedPayment;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.QueryNumbers;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import java.util.Optional;

/** {@code GET /payments} (renters: their own; operators: all) and {@code GET /operator/ledger-check}. */
final class PaymentsApi {
  private static final int DEFAULT_LIMIT = 20;
  private final Pool pool;

  PaymentsApi(Pool pool) {
    this.pool = pool;
  }

  void bind(RouterBuilder api) {
    api.getRoute("listPayments").addHandler(this::list);
    api.getRoute("checkLedger").addHandler(this::checkLedger);
  }

  private void list(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    int limit = QueryNumbers.limit(ctx, DEFAULT_LIMIT);
    Optional<Page.Position> after = Optional.ofNullable(ctx.request().getParam("cursor")).map(Page::decode);
    PaymentRepository.list(pool, caller.accountId(), caller.isOperator(),
            after.map(Page.Position::createdAt).orElse(null), after.map(Page.Position::id).orElse(null), limit + 1)
        .onSuccess(payments -> ctx.json(Page.of(payments, limit, PaymentsApi::json,
            payment -> Page.encode(payment.createdAt(), payment.id()))))
        .onFailure(ctx::fail);
  }

  private static JsonObject json(ListedPayment payment) {
    JsonArray refunds = new JsonArray();
    payment.refunds().forEach(refund -> refunds.add(Refunds.toApi(refund)));
    return new JsonObject()
        .put("id", payment.id())
        .put("reservation_id", payment.reservationId())
        .put("extension_id", payment.extensionId())
        .put("method", payment.checkoutSessionId() != null ? "checkout" : "saved_card")
        .put("amount", payment.amount())
        .put("amount_refunded", payment.amountRefunded())
        .put("currency", payment.currency())
        .put("status", payment.status())
        .put("failure", payment.failureCode() == null ? null
            : new JsonObject().put("code", payment.failureCode()).put("message", payment.failureMessage()))
        .put("receipt", "succeeded".equals(payment.status()) || "refunded".equals(payment.status())
            ? payment.receipt() : null)
        .put("created_at", payment.createdAt().toInstant().toString())
        .put("refunds", refunds);
  }

  private void checkLedger(RoutingContext ctx) {
    LedgerRepository.check(pool)
        .map(check -> {
          JsonArray problems = new JsonArray();
          check.problems().forEach(p -> problems.add(new JsonObject().put("problem", p.problem()).put("ref", p.ref())
              .put("detail", p.detail())));
          JsonArray balances = new JsonArray();
          check.balances().forEach(b -> balances.add(new JsonObject().put("account", b.account())
              .put("currency", b.currency()).put("amount", b.amount())));
          return new JsonObject().put("ok", problems.isEmpty())
              .put("transactions", check.transactions())
              .put("checked_at", java.time.Instant.now().toString())
              .put("balances", balances).put("problems", problems);
        })
        .onSuccess(ctx::json)
        .onFailure(ctx::fail);
  }
}
