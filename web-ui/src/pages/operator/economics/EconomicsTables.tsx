/**
 * The numbers behind the charts: the daily series, the figures per group, and every host
 * sortable by net margin with its price suggestions.
 */
import { useState } from 'preact/hooks';
import { formatMoney } from '../../../format';
import { SuggestionSummary } from './PriceSuggestions';
import { percent, type EconomicsGroup, type EconomicsReport, type Money, type PriceSuggestion } from './economics-api';

function money(m: Money | null | undefined) {
  return m ? <span class={m.amount < 0 ? 'negative' : undefined}>{formatMoney(m.amount, m.currency)}</span> : '—';
}

const hours = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** The money of several groups added up (money and hours add; ratios are recomputed). */
export function sumGroups(groups: EconomicsGroup[]): EconomicsGroup | null {
  if (groups.length === 0) {
    return null;
  }
  const currency = groups[0]!.revenue.currency;
  const add = (pick: (g: EconomicsGroup) => number) => groups.reduce((sum, g) => sum + pick(g), 0);
  const m = (pick: (g: EconomicsGroup) => number): Money => ({ amount: add(pick), currency });
  const available = add((g) => g.available_gpu_hours);
  const booked = add((g) => g.booked_gpu_hours);
  const revenue = add((g) => g.revenue.amount);
  const margin = add((g) => g.net_margin.amount);
  return {
    ...groups[0]!,
    key: 'fleet',
    label: 'Fleet',
    hosts: add((g) => g.hosts),
    available_gpu_hours: available,
    booked_gpu_hours: booked,
    utilization_bps: available > 0 ? Math.round((booked / available) * 10_000) : null,
    revenue: m((g) => g.revenue.amount),
    refunds_and_credits: m((g) => g.refunds_and_credits.amount),
    card_fees: m((g) => g.card_fees.amount),
    energy: { ...groups[0]!.energy, cost: m((g) => g.energy.cost.amount) },
    other_costs: m((g) => g.other_costs.amount),
    depreciation: m((g) => g.depreciation.amount),
    net_margin: m((g) => g.net_margin.amount),
    margin_bps: revenue !== 0 ? Math.round((margin / revenue) * 10_000) : null,
    notes: [],
  };
}

/** Share of the purchase price earned since joining, and the months left at this range's pace. */
function paidBack(p: EconomicsGroup['payback']) {
  if (p.progress_to_date_bps === null) {
    return '—';
  }
  const left = p.months_to_payback === null ? 'not at this pace'
    : p.months_to_payback === 0 ? 'paid back' : `~${p.months_to_payback} months left`;
  return <>{percent(p.progress_to_date_bps)}<span class="muted"> ({left})</span></>;
}

function GroupRow({ g, withSuggestion = false, suggestion }: { g: EconomicsGroup; withSuggestion?: boolean;
  suggestion?: PriceSuggestion | undefined }) {
  return (
    <tr id={`economics-${g.key}`} data-margin={g.net_margin.amount}>
      <th scope="row">
        {g.label}
        {g.notes.length > 0 && <sup><a href={`#notes-${g.key}`} aria-label={`Notes on ${g.label}`}>*</a></sup>}
      </th>
      <td>{percent(g.utilization_bps)}</td>
      {!withSuggestion && <td>{money(g.effective_rate)}</td>}
      <td>{money(g.revenue)}</td>
      <td>{money(g.refunds_and_credits)}</td>
      <td>{money(g.card_fees)}</td>
      <td>{money(g.energy.cost)}{!withSuggestion && <span class="muted"> ({hours.format(g.energy.facility_kwh)} kWh)</span>}</td>
      <td>{money(g.other_costs)}</td>
      <td>{money(g.depreciation)}</td>
      <td>{money(g.net_margin)}</td>
      <td>{percent(g.margin_bps)}</td>
      {!withSuggestion && <td>{percent(g.break_even_utilization_bps)}</td>}
      {!withSuggestion && <td class="payback">{paidBack(g.payback)}</td>}
      {withSuggestion && <td>{suggestion ? <SuggestionSummary suggestion={suggestion} compact /> : '—'}</td>}
    </tr>
  );
}

function Head({ withSuggestions, sort }: { withSuggestions: boolean; sort?: { dir: 'ascending' | 'descending';
  toggle: () => void } }) {
  return (
    <thead>
      <tr>
        <th scope="col">Name</th><th scope="col">Utilization</th>
        {!withSuggestions && <th scope="col">Effective rate</th>}
        <th scope="col">Revenue</th><th scope="col">Refunds &amp; credits</th><th scope="col">Card fees</th>
        <th scope="col">Energy</th><th scope="col">Other costs</th><th scope="col">Depreciation</th>
        <th scope="col" aria-sort={sort?.dir}>
          {sort ? <button id="sort-margin" type="button" class="sort-button" onClick={sort.toggle}>
            Net margin {sort.dir === 'descending' ? '▼' : '▲'}</button> : 'Net margin'}
        </th>
        <th scope="col">Margin</th>{!withSuggestions && <th scope="col">Break-even utilization</th>}
        {!withSuggestions && <th scope="col" title="Contribution (net margin + depreciation) since the host joined ÷ purchase price">Hardware paid back</th>}
        {withSuggestions && <th scope="col">Suggested price</th>}
      </tr>
    </thead>
  );
}

function Notes({ groups, prefix }: { groups: EconomicsGroup[]; prefix: string }) {
  const noted = groups.filter((g) => g.notes.length > 0);
  if (noted.length === 0) {
    return null;
  }
  return (
    <ul class="economics-notes muted" id={`${prefix}-notes`}>
      {noted.map((g) => (
        <li key={g.key} id={`notes-${g.key}`}>
          <strong>{g.label}:</strong> {g.notes.join(' ')}
        </li>
      ))}
    </ul>
  );
}

export function EconomicsTables({ report, hosts, suggestions }: { report: EconomicsReport; hosts: EconomicsReport;
  suggestions: PriceSuggestion[] }) {
  const [dir, setDir] = useState<'ascending' | 'descending'>('descending');
  const sorted = [...hosts.data].sort((a, b) => (dir === 'descending' ? -1 : 1)
    * (a.net_margin.amount - b.net_margin.amount));
  const byHost = new Map(suggestions.map((s) => [s.host_id, s]));
  return (
    <>
      <details>
        <summary>Daily figures (table)</summary>
        <table class="economics-table" id="economics-days">
          <thead><tr><th scope="col">Day (UTC)</th><th scope="col">Available GPU-h</th><th scope="col">Booked GPU-h</th>
            <th scope="col">Utilization</th><th scope="col">Net revenue</th></tr></thead>
          <tbody>
            {report.series.map((d) => (
              <tr key={d.start}><th scope="row">{d.start.slice(0, 10)}</th><td>{hours.format(d.available_gpu_hours)}</td>
                <td>{hours.format(d.booked_gpu_hours)}</td><td>{percent(d.utilization_bps)}</td>
                <td>{money(d.net_revenue)}</td></tr>
            ))}
          </tbody>
        </table>
      </details>
      <h3>By {report.group_by.replace('_', ' ')}</h3>
      <div class="table-scroll">
        <table class="economics-table" id="economics-groups">
          <Head withSuggestions={false} />
          <tbody>{report.data.map((g) => <GroupRow key={g.key} g={g} />)}</tbody>
        </table>
      </div>
      {report.group_by !== 'host' && <Notes groups={report.data} prefix="groups" />}
      <h3>Hosts</h3>
      <div class="table-scroll">
        <table class="economics-table" id="economics-hosts">
          <caption class="muted">Sorted by net margin; suggested prices per GPU-hour at a 30 % target margin (break-even: costs ÷ booked GPU-hours).
            Effective rate, break-even utilization and kWh: in the table above grouped by host, and in the CSV.</caption>
          <Head withSuggestions sort={{ dir, toggle: () => setDir(dir === 'descending' ? 'ascending' : 'descending') }} />
          <tbody>{sorted.map((g) => <GroupRow key={g.key} g={g} withSuggestion suggestion={byHost.get(g.key)} />)}</tbody>
        </table>
      </div>
      <Notes groups={sorted} prefix="hosts" />
    </>
  );
}
