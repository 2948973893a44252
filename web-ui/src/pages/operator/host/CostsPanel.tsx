/**
 * One host's costs: the form to enter them (from the current hour, or from a past hour to
 * correct a period) and every period so far. Money is typed in the currency's major unit.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Field } from '../../../fields';
import { currencyFractionDigits, formatDateTime, formatMoney } from '../../../format';
import type { Me } from '../../../session';
import { getSettings, toMinor } from '../prices/prices-api';
import { getCosts, putCosts, type CostFields, type HostCosts } from './costs-api';

type MoneyField = Exclude<keyof CostFields, 'depreciation_months' | 'pue'>;

const MONEY_FIELDS: readonly { name: MoneyField; label: string; optional?: boolean }[] = [
  { name: 'purchase_price', label: 'Purchase price' },
  { name: 'residual_value', label: 'Residual value' },
  { name: 'electricity_price_per_kwh', label: 'Electricity per kWh' },
  { name: 'colocation_per_month', label: 'Colocation or rent per month' },
  { name: 'bandwidth_per_month', label: 'Bandwidth per month' },
  { name: 'maintenance_per_month', label: 'Maintenance per month' },
  { name: 'financing_per_month', label: 'Financing per month, optional', optional: true },
];

type Draft = Record<MoneyField | 'depreciation_months' | 'pue', string>;

function draftOf(costs: HostCosts | null, digits: number): Draft {
  const major = (minor: number | null | undefined) => (minor == null ? '' : (minor / 10 ** digits).toFixed(digits));
  return {
    purchase_price: major(costs?.purchase_price), residual_value: major(costs?.residual_value ?? 0),
    electricity_price_per_kwh: major(costs?.electricity_price_per_kwh),
    colocation_per_month: major(costs?.colocation_per_month ?? 0), bandwidth_per_month: major(costs?.bandwidth_per_month ?? 0),
    maintenance_per_month: major(costs?.maintenance_per_month ?? 0), financing_per_month: major(costs?.financing_per_month),
    depreciation_months: String(costs?.depreciation_months ?? 48), pue: String(costs?.pue ?? 1.3),
  };
}

/** The draft as costs, or the first field a person must fix. */
function parse(draft: Draft, digits: number): CostFields | { field: string; message: string } {
  const costs: Partial<Record<MoneyField, number | null>> = {};
  for (const f of MONEY_FIELDS) {
    const text = draft[f.name].trim();
    if (f.optional && text === '') {
      costs[f.name] = null;
      continue;
    }
    const minor = toMinor(text, digits);
    if (minor === null) {
      return { field: f.name, message: `${f.label}: enter an amount, e.g. 1200.00.` };
    }
    costs[f.name] = minor;
  }
  const months = Number(draft.depreciation_months);
  if (!Number.isInteger(months) || months < 1 || months > 600) {
    return { field: 'depreciation_months', message: 'Depreciation: a whole number of months from 1 to 600.' };
  }
  const pue = Number(draft.pue.replace(',', '.'));
  if (!Number.isFinite(pue) || pue < 1 || pue > 10) {
    return { field: 'pue', message: 'PUE: a number from 1 to 10, e.g. 1.35.' };
  }
  return { ...costs, depreciation_months: months, pue } as CostFields;
}

type From = 'now' | 'joined' | 'hour';

const utc = (iso: string) => formatDateTime(iso, undefined, 'UTC');

/** `entered`: whether the host has costs yet (without, the form starts empty and nothing is fetched). */
export function CostsPanel({ me, hostId, entered }: { me: Me; hostId: string; entered: boolean }) {
  const [costs, setCosts] = useState<HostCosts | null | undefined>(undefined);
  const [currency, setCurrency] = useState('usd');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [from, setFrom] = useState<From>('now');
  const [hour, setHour] = useState('');
  const [error, setError] = useState<{ field?: string; text: string } | null>(null);
  const [status, setStatus] = useState('');
  const digits = currencyFractionDigits(currency);

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([entered ? getCosts(hostId, controller.signal) : Promise.resolve(null), getSettings(controller.signal)])
      .then(([found, settings]) => {
        setCosts(found);
        setCurrency(settings.currency);
        setDraft(draftOf(found, currencyFractionDigits(settings.currency)));
      })
      .catch((e: unknown) => !controller.signal.aborted && setError({ text: e instanceof Error ? e.message : String(e) }));
    return () => controller.abort();
  }, [hostId, entered]);

  const onSubmit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStatus('');
    const parsed = draft && parse(draft, digits);
    if (!parsed || 'field' in parsed) {
      setError(parsed ? { field: parsed.field, text: parsed.message } : { text: 'Loading…' });
      return;
    }
    if (from === 'hour' && !hour) {
      setError({ field: 'from-hour', text: 'Choose the UTC hour the costs apply from.' });
      return;
    }
    const effectiveFrom = !costs || from === 'now' ? undefined
      : from === 'joined' ? null : new Date(`${hour.slice(0, 13)}:00:00Z`).toISOString().replace('.000Z', 'Z');
    putCosts(me, hostId, currency, parsed, effectiveFrom)
      .then((saved) => {
        setCosts(saved);
        setFrom('now');
        setError(null);
        const period = effectiveFrom === undefined ? saved.history[0]!
          : saved.history.find((p) => p.effective_from === effectiveFrom)!;
        setStatus(period.effective_from === null ? 'Costs saved: they apply since the host joined.'
          : `Costs saved from ${utc(period.effective_from)}; earlier hours keep their costs.`);
      })
      .catch((e: unknown) => setError({ text: e instanceof Error ? e.message : String(e) }));
  };

  const set = (name: keyof Draft) => (e: JSX.TargetedEvent<HTMLInputElement>) =>
    draft && setDraft({ ...draft, [name]: e.currentTarget.value });
  const invalidBy = (field: string) => (error?.field === field ? 'costs-error' : undefined);

  return (
    <section id="costs-panel" class="panel costs-panel" aria-labelledby="costs-heading">
      <h3 id="costs-heading">Costs</h3>
      <p class="muted">
        What this server costs you, for Economics. {costs ? 'A change applies from the current hour on; earlier hours keep'
          + ' the costs they had.' : 'The first costs apply since the host joined.'}
      </p>
      {error && <p id="costs-error" class="problem" role="alert">{error.text}</p>}
      <p id="costs-message" role="status" class={status ? 'notice' : undefined}>{status}</p>
      {draft && (
        <form id="costs-form" class="costs-form" onSubmit={onSubmit} noValidate>
          {MONEY_FIELDS.map((f) => (
            <Field key={f.name} id={`costs-${f.name}`} label={`${f.label} (${currency.toUpperCase()})`}
              invalidBy={invalidBy(f.name)}>
              {(control) => <input {...control} type="text" inputMode="decimal" value={draft[f.name]} onInput={set(f.name)} />}
            </Field>
          ))}
          <Field id="costs-depreciation_months" label="Depreciation (months)" invalidBy={invalidBy('depreciation_months')}>
            {(control) => <input {...control} type="number" min={1} max={600} value={draft.depreciation_months}
              onInput={set('depreciation_months')} />}
          </Field>
          <Field id="costs-pue" label="PUE (cooling overhead, ≥ 1)" invalidBy={invalidBy('pue')}>
            {(control) => <input {...control} type="text" inputMode="decimal" value={draft.pue} onInput={set('pue')} />}
          </Field>
          {costs && (
            <Field id="costs-from" label="Apply from">
              {(control) => (
                <select {...control} value={from} onChange={(e) => setFrom(e.currentTarget.value as From)}>
                  <option value="now">The current hour (a change)</option>
                  <option value="hour">A past UTC hour (a correction)</option>
                  <option value="joined">Since the host joined (corrects the first costs)</option>
                </select>
              )}
            </Field>
          )}
          {costs && from === 'hour' && (
            <Field id="costs-from-hour" label="UTC hour" invalidBy={invalidBy('from-hour')}>
              {(control) => <input {...control} type="datetime-local" step={3600} value={hour}
                onInput={(e) => setHour(e.currentTarget.value)} />}
            </Field>
          )}
          <button id="costs-submit" type="submit" class="btn btn--primary">Save costs</button>
        </form>
      )}
      {costs && (
        <div class="table-scroll">
          <table id="costs-history" class="hosts-table">
            <caption>Cost periods, newest first (times in UTC)</caption>
            <thead>
              <tr><th scope="col">From</th><th scope="col">Electricity</th><th scope="col">PUE</th>
                <th scope="col">Monthly</th><th scope="col">Purchase</th><th scope="col">Entered by</th></tr>
            </thead>
            <tbody>
              {costs.history.map((p) => (
                <tr key={p.effective_from ?? 'joined'}>
                  <th scope="row">{p.effective_from ? utc(p.effective_from) : 'Since the host joined'}</th>
                  <td>{formatMoney(p.electricity_price_per_kwh, p.currency)}/kWh</td>
                  <td>{p.pue}</td>
                  <td>{formatMoney(p.colocation_per_month + p.bandwidth_per_month + p.maintenance_per_month
                    + (p.financing_per_month ?? 0), p.currency)}</td>
                  <td>{formatMoney(p.purchase_price, p.currency)} over {p.depreciation_months} months</td>
                  <td>{p.updated_by === 'demo-fleet' ? 'demo fleet' : p.updated_by} <span class="muted">{utc(p.updated_at)}</span></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
