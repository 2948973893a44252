package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the operator reads of the books: the ledger check (every transaction balances, every
 * succeeded payment and refund has its one transaction, nothing over-refunded, no refund stuck;
 * the totals per ledger account) and how reconciliation with Stripe goes.
 */
public final class PaymentsOversight {
  private final Pool pool;
  private final Reconciler reconciler;
  private final Duration reconcileEvery;

  PaymentsOversight(Pool pool, Reconciler reconciler, Duration reconcileEvery) {
    this.pool = pool;
    this.reconciler = reconciler;
    this.reconcileEvery = reconcileEvery;
  }

  /** One thing the check found wrong: its kind (e.g. {@code unbalanced_transaction}), what it is about, and why. */
  public record Problem(String problem, String ref, String detail) {}

  /** The sum of one ledger account's entries in one currency (debits positive). */
  public record Balance(String account, String currency, long amount) {}

  /** The ledger at one moment. */
  public record LedgerCheck(Instant checkedAt, long transactions, List<Balance> balances, List<Problem> problems) {
    public boolean ok() {
      return problems.isEmpty();
    }
  }

  public Future<LedgerCheck> checkLedger() {
    return LedgerRepository.check(pool).map(check -> new LedgerCheck(Instant.now(), check.transactions(),
        check.balances().stream().map(b -> new Balance(b.account(), b.currency().trim(), b.amount())).toList(),
        check.problems().stream().map(p -> new Problem(p.problem(), p.ref(), p.detail())).toList()));
  }

  public Future<Payments.ReconciliationStatus> reconciliation() {
    return reconciler.status(reconcileEvery);
  }
}
