import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import {
  type BudgetCaps,
  type BudgetReport,
  type DefaultBudget,
  getDefaultBudget,
  getTokenBudget,
  setDefaultBudget,
  setTokenBudget,
  type TokenWithBudget,
} from '../../budgets';
import { formatMoney } from '../../format';
import type { Me } from '../../session';
import { listTokens } from '../../tokens';
import { errorMessage, handleAuthError } from './account-errors';
import { BudgetForm } from './BudgetForm';

/**
 * "Budgets": what each API token may spend and has spent (today, this month, in total) and what
 * remains, each editable; and the default budget new tokens (and OAuth grants) start with.
 */
export function Budgets({ me, version }: { me: Me; version: number }) {
  const [tokens, setTokens] = useState<TokenWithBudget[] | null>(null);
  const [defaults, setDefaults] = useState<DefaultBudget | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const mounted = useRef(true);

  const reload = useCallback(async () => {
    try {
      const [page, fallback] = await Promise.all([listTokens(), getDefaultBudget()]);
      const detailed = await Promise.all((page?.data ?? []).map((token) => getTokenBudget(token.id)));
      if (mounted.current) {
        setTokens(detailed);
        setDefaults(fallback);
        setError(null);
      }
    } catch (caught) {
      if (mounted.current && !handleAuthError(caught)) {
        setError(errorMessage(caught, 'Could not load your budgets.'));
      }
    }
  }, []);

  useEffect(() => {
    mounted.current = true;
    void reload();
    return () => {
      mounted.current = false;
    };
  }, [reload, version]);

  const currency =
    tokens?.find((token) => token.budget)?.budget?.currency ?? defaults?.default_budget?.currency ?? 'USD';

  const save = async (what: string, action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      setEditing(null);
      setStatus(done);
      await reload();
    } catch (caught) {
      if (!handleAuthError(caught)) {
        setError(`Could not save ${what}: ${errorMessage(caught, 'request failed')}`);
      }
    } finally {
      setBusy(false);
    }
  };

  const editedToken = tokens?.find((token) => token.id === editing) ?? null;
  return (
    <section class="section" aria-labelledby="budgets-heading">
      <h2 id="budgets-heading">Budgets</h2>
      <p>
        What an agent or script holding a token may spend. Spending counts what the token’s reservations hold or
        paid, less refunds and credits. Above the approval threshold a new reservation waits for you (on the
        Reservations page, or through the link we e-mail you).
      </p>
      <p id="budget-status" class="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {error && (
        <div id="budget-error" class="alert alert--error" role="alert">
          <p>{error}</p>
        </div>
      )}
      {tokens === null ? (
        <p class="muted">Loading budgets…</p>
      ) : tokens.length === 0 ? (
        <p class="empty-state">No API tokens, so no budgets yet.</p>
      ) : (
        <div class="table-wrap" role="region" aria-labelledby="budgets-heading" tabIndex={0}>
          <table id="budget-table" class="data-table">
            <caption class="visually-hidden">Each token’s budget</caption>
            <thead>
              <tr>
                <th scope="col">Token</th>
                <th scope="col">Today</th>
                <th scope="col">This month</th>
                <th scope="col">Total</th>
                <th scope="col">Per GPU-hour</th>
                <th scope="col">Longest</th>
                <th scope="col">Approval above</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id} class="budget-row" data-token-id={token.id}>
                  <th scope="row">
                    {token.name} <code class="token-prefix">{token.prefix}</code>
                  </th>
                  {token.budget ? (
                    <>
                      <td>{spending(token.budget, 'today', 'daily_cap')}</td>
                      <td>{spending(token.budget, 'this_month', 'monthly_cap')}</td>
                      <td>{spending(token.budget, 'total', 'total_cap')}</td>
                      <td>{cap(token.budget.max_price_per_gpu_hour, token.budget.currency)}</td>
                      <td>{token.budget.max_hours === null ? 'no cap' : `${token.budget.max_hours} h`}</td>
                      <td>{cap(token.budget.approval_threshold, token.budget.currency, 'never asks')}</td>
                    </>
                  ) : (
                    <td colSpan={6} class="muted">
                      No budget: not limited
                    </td>
                  )}
                  <td>
                    <button
                      type="button"
                      class="btn btn--small edit-budget"
                      aria-label={`Edit the budget of ${token.name}`}
                      onClick={() => setEditing(token.id)}
                    >
                      Edit
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editedToken && (
        <BudgetForm
          key={editedToken.id}
          id="token-budget-form"
          heading={`Budget of “${editedToken.name}”`}
          currency={currency}
          initial={editedToken.budget}
          busy={busy}
          onSave={(caps: BudgetCaps) =>
            void save('the budget', () => setTokenBudget(me, editedToken.id, caps), `Budget of “${editedToken.name}” saved.`)
          }
          onCancel={() => setEditing(null)}
        />
      )}
      {defaults !== null && (
        <BudgetForm
          key={JSON.stringify(defaults.default_budget)}
          id="default-budget-form"
          heading="Default budget for new tokens"
          currency={currency}
          initial={defaults.default_budget}
          busy={busy}
          onSave={(caps: BudgetCaps) =>
            void save('the default budget', () => setDefaultBudget(me, caps), 'Default budget saved.')
          }
          onRemove={
            defaults.default_budget
              ? () => void save('the default budget', () => setDefaultBudget(me, null), 'Default budget removed.')
              : undefined
          }
          removeLabel="Remove default"
        />
      )}
      {defaults !== null && (
        <p id="default-budget-note" class="hint">
          {defaults.default_budget
            ? 'New tokens start with this budget unless you give them another; existing tokens keep theirs.'
            : 'No default: new tokens start without a budget (not limited) until you give them one.'}
        </p>
      )}
    </section>
  );
}

/** "$12.00 of $200.00 · $188.00 left", or what was spent when there is no cap. */
function spending(report: BudgetReport, period: 'today' | 'this_month' | 'total', capKey: keyof BudgetReport) {
  const limit = report[capKey] as number | null;
  const spent = formatMoney(report.spent[period], report.currency);
  if (limit === null) {
    return <span>{spent} spent</span>;
  }
  return (
    <span>
      {spent} of {formatMoney(limit, report.currency)}
      <br />
      <span class="muted">{formatMoney(report.remaining[period] ?? 0, report.currency)} left</span>
    </span>
  );
}

function cap(amount: number | null, currency: string, none = 'no cap') {
  return amount === null ? <span class="muted">{none}</span> : formatMoney(amount, currency);
}
