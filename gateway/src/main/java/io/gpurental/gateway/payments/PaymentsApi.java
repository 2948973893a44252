package io.gpurental.gateway.payments;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.QueryNumbers;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@code GET /payments} (renters: their own; operators: all) and {@code GET /operator/ledger-check}. */
final class PaymentsApi {
  private static final int DEFAULT_LIMIT = 20;
  private static final String LIST = """
      SELECT p.*, v.price AS receipt, v.payment_method,
             coalesce((SELECT json_agg(%s ORDER BY f.created_at)
                       FROM refunds f WHERE f.payment_id = p.id), '[]') AS refunds
      FROM payments p JOIN payable_prices_view v
        ON v.reservation_id = p.reservation_id AND v.extension_id IS NOT DISTINCT FROM p.extension_id
      WHERE ($2 OR p.account_id = $1) AND ($3::timestamptz IS NULL OR (p.created_at, p.id) < ($3, $4))
      ORDER BY p.created_at DESC, p.id DESC LIMIT $5""".formatted(Refunds.AS_JSON);
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
    pool.preparedQuery(LIST).execute(Tuple.of(caller.accountId(), caller.isOperator(),
            after.map(Page.Position::createdAt).orElse(null), after.map(Page.Position::id).orElse(null), limit + 1))
        .onSuccess(rows -> {
          List<Row> list = new ArrayList<>();
          rows.forEach(list::add);
          ctx.json(Page.of(list, limit, PaymentsApi::json,
              row -> Page.encode(row.getOffsetDateTime("created_at"), row.getString("id"))));
        })
        .onFailure(ctx::fail);
  }

  private static JsonObject json(Row row) {
    JsonArray refunds = new JsonArray();
    Object stored = row.getValue("refunds");
    for (Object entry : stored instanceof JsonArray array ? array : new JsonArray(String.valueOf(stored))) {
      refunds.add(Refunds.toApi((JsonObject) entry));
    }
    String failureCode = row.getString("failure_code");
    return new JsonObject()
        .put("id", row.getString("id"))
        .put("reservation_id", row.getString("reservation_id"))
        .put("extension_id", row.getString("extension_id"))
        .put("method", row.getString("checkout_session_id") != null ? "checkout" : "saved_card")
        .put("amount", row.getLong("amount"))
        .put("amount_refunded", row.getLong("amount_refunded"))
        .put("currency", row.getString("currency"))
        .put("status", row.getString("status"))
        .put("failure", failureCode == null ? null
            : new JsonObject().put("code", failureCode).put("message", row.getString("failure_message")))
        .put("receipt", "succeeded".equals(row.getString("status")) || "refunded".equals(row.getString("status"))
            ? row.getJsonObject("receipt") : null)
        .put("created_at", row.getOffsetDateTime("created_at").toInstant().toString())
        .put("refunds", refunds);
  }

  private void checkLedger(RoutingContext ctx) {
    pool.withTransaction(tx -> tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY").execute()
            .compose(v -> tx.query("SELECT problem, ref, detail FROM ledger_problems ORDER BY problem, ref").execute())
            .compose(problems -> tx.query("SELECT count(*) FROM ledger_transactions").execute()
                .compose(count -> tx.query("SELECT account, currency, sum(amount) FROM ledger_entries"
                        + " GROUP BY account, currency ORDER BY account, currency").execute()
                    .map(balances -> {
                      JsonArray problemList = new JsonArray();
                      problems.forEach(p -> problemList.add(new JsonObject().put("problem", p.getString(0))
                          .put("ref", p.getString(1)).put("detail", p.getString(2))));
                      JsonArray balanceList = new JsonArray();
                      balances.forEach(b -> balanceList.add(new JsonObject().put("account", b.getString(0))
                          .put("currency", b.getString(1)).put("amount", b.getLong(2))));
                      return new JsonObject().put("ok", problemList.isEmpty())
                          .put("transactions", count.iterator().next().getLong(0))
                          .put("checked_at", java.time.Instant.now().toString())
                          .put("balances", balanceList).put("problems", problemList);
                    }))))
        .onSuccess(ctx::json)
        .onFailure(ctx::fail);
  }
}
