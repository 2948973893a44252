/** Operator console → Ledger: the ledger check (balanced, complete, totals per account) and how reconciliation runs. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { formatDateTime, formatMoney } from '../../../format';
import { errorText, formatCount, isAbort } from '../../../offers';
import { ledgerStatus, type LedgerStatus, type ReconcilerRun } from './admin-api';
import './admin.css';

export function LedgerPage() {
  const [status, setStatus] = useState<LedgerStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback((signal?: AbortSignal) => {
    setError(null);
    ledgerStatus(signal)
      .then(setStatus)
      .catch((caught: unknown) => {
        if (!isAbort(caught)) {
          setError(errorText(caught, 'Could not check the ledger.'));
        }
      });
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  return (
    <section aria-labelledby="ledger-heading" class="admin-page">
      <h2 id="ledger-heading">Ledger</h2>
      <button type="button" class="btn" id="ledger-recheck" onClick={() => load()}>
        Check again
      </button>
      {error && (
        <p class="alert alert--error" role="alert">
          {error}
        </p>
      )}
      {!status && !error && <p class="muted" role="status">Checking the ledger…</p>}
      {status && <LedgerCheck ledger={status.ledger} />}
      {status && <Reconciliation reconciliation={status.reconciliation} />}
    </section>
  );
}

function LedgerCheck({ ledger }: { ledger: LedgerStatus['ledger'] }) {
  return (
    <div class="admin-card" id="ledger-check" data-ok={ledger.ok ? 'true' : 'false'}>
      <h3>Ledger check</h3>
      <p role="status" class={ledger.ok ? 'admin-ok' : 'admin-bad'}>
        {ledger.ok
          ? `OK: ${formatCount(ledger.transactions)} transactions, each sums to zero; every payment and refund is in the ledger.`
          : `${formatCount(ledger.problems.length)} problem${ledger.problems.length === 1 ? '' : 's'} in ${formatCount(ledger.transactions)} transactions.`}
        <span class="admin-sub muted">checked {formatDateTime(ledger.checked_at)}</span>
      </p>
      {ledger.problems.length > 0 && (
        <div class="table-wrap">
          <table id="ledger-problems" class="data-table admin-table">
            <caption>What is wrong</caption>
            <thead>
              <tr>
                <th scope="col">Problem</th>
                <th scope="col">Reference</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {ledger.problems.map((p) => (
                <tr key={`${p.problem}:${p.ref}`} data-problem={p.problem}>
                  <td>{p.problem.replace(/_/g, ' ')}</td>
                  <td><code>{p.ref}</code></td>
                  <td>{p.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="table-wrap">
        <table id="ledger-balances" class="data-table admin-table">
          <caption>Totals per ledger account (debits positive)</caption>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col" class="num">Total</th>
            </tr>
          </thead>
          <tbody>
            {ledger.balances.map((b) => (
              <tr key={`${b.account}:${b.currency}`}>
                <td><code>{b.account}</code></td>
                <td class="num">{formatMoney(b.amount, b.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Reconciliation({ reconciliation }: { reconciliation: LedgerStatus['reconciliation'] }) {
  const last = reconciliation.last_run;
  return (
    <div class="admin-card" id="reconciliation" data-ok={reconciliation.ok ? 'true' : 'false'}>
      <h3>Reconciliation with Stripe</h3>
      <p class={reconciliation.ok ? 'admin-ok' : 'admin-bad'}>
        {!last ? 'No run yet.' : reconciliation.ok ? 'The last run finished cleanly.' : 'The last run had failures.'}
        <span class="admin-sub muted">
          Runs every {formatCount(reconciliation.interval_seconds)} s; {formatCount(reconciliation.runs_last_24h)} runs and{' '}
          {formatCount(reconciliation.events_applied_last_24h)} missed events applied in the last 24 hours.
        </span>
      </p>
      <dl class="admin-runs">
        <Run label="Last run" run={last} />
        <Run label="Last failure" run={reconciliation.last_failure} />
      </dl>
    </div>
  );
}

function Run({ label, run }: { label: string; run: ReconcilerRun | null }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        {!run ? (
          'None'
        ) : (
          <>
            <time dateTime={run.finished_at}>{formatDateTime(run.finished_at)}</time>: {formatCount(run.refunds_retried)}{' '}
            pending refunds retried, {formatCount(run.events_missed)} missed events, {formatCount(run.events_applied)}{' '}
            applied, {formatCount(run.events_failed)} failed{run.error ? ` — ${run.error}` : ''}
          </>
        )}
      </dd>
    </>
  );
}
