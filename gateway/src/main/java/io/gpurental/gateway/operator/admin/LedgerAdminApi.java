package io.gpurental.gateway.operator.admin;

import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.payments.PaymentsOversight;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.Optional;

/** {@code GET /operator/ledger/check}: the ledger check and the reconciliation status on one page. */
final class LedgerAdminApi {
  private final PaymentsOversight oversight;

  LedgerAdminApi(PaymentsOversight oversight) {
    this.oversight = oversight;
  }

  void bind(RouterBuilder api) {
    api.getRoute("getLedgerStatus").addHandler(this::status);
  }

  private void status(RoutingContext ctx) {
    oversight.checkLedger()
        .compose(ledger -> oversight.reconciliation().map(reconciliation -> new JsonObject()
            .put("ledger", json(ledger)).put("reconciliation", json(reconciliation))))
        .onSuccess(ctx::json)
        .onFailure(ctx::fail);
  }

  private static JsonObject json(PaymentsOversight.LedgerCheck check) {
    JsonArray balances = new JsonArray();
    check.balances().forEach(b -> balances.add(new JsonObject().put("account", b.account())
        .put("currency", b.currency()).put("amount", b.amount())));
    JsonArray problems = new JsonArray();
    check.problems().forEach(p -> problems.add(new JsonObject().put("problem", p.problem()).put("ref", p.ref())
        .put("detail", p.detail())));
    return new JsonObject().put("ok", check.ok()).put("transactions", check.transactions())
        .put("checked_at", check.checkedAt().toString()).put("balances", balances).put("problems", problems);
  }

  private static JsonObject json(Payments.ReconciliationStatus status) {
    return new JsonObject()
        .put("ok", status.lastRun().map(run -> !run.failed()).orElse(true))
        .put("interval_seconds", status.interval().toSeconds())
        .put("last_run", json(status.lastRun()))
        .put("last_failure", json(status.lastFailure()))
        .put("runs_last_24h", status.runsLastDay())
        .put("events_applied_last_24h", status.eventsAppliedLastDay());
  }

  private static JsonObject json(Optional<Payments.ReconcilerRun> run) {
    return run.map(r -> new JsonObject()
        .put("started_at", r.startedAt().toString())
        .put("finished_at", r.finishedAt().toString())
        .put("refunds_retried", r.counts().refundsRetried())
        .put("events_missed", r.counts().eventsMissed())
        .put("events_applied", r.counts().eventsApplied())
        .put("events_failed", r.counts().eventsFailed())
        .put("error", r.error())
        .put("ok", !r.failed())).orElse(null);
  }
}
