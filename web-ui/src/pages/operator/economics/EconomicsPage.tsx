/**
 * The operator's economics: pick a range and a grouping; utilization and revenue per day, the
 * margin waterfall, the figures per group, and every host sortable by margin with its price
 * suggestions. Charts come with text summaries and tables of the same numbers; CSV download.
 */
import { useEffect, useState } from 'preact/hooks';
import { formatMoney } from '../../../format';
import { EconomicsTables, sumGroups } from './EconomicsTables';
import { MarginWaterfall, UsageChart, waterfallSteps } from './EconomicsCharts';
import { PriceSuggestions } from './PriceSuggestions';
import {
  defaultRange,
  economicsCsvUrl,
  getEconomics,
  getPriceSuggestions,
  percent,
  type EconomicsReport,
  type GroupBy,
  type PriceSuggestion,
  type Range,
} from './economics-api';
import './economics.css';

const GROUPINGS: { value: GroupBy; label: string }[] = [
  { value: 'fleet', label: 'Fleet' },
  { value: 'site', label: 'Site' },
  { value: 'host', label: 'Host' },
  { value: 'gpu_model', label: 'GPU model' },
];

function dayInput(iso: string): string {
  return iso.slice(0, 10);
}

export function EconomicsPage() {
  const [range, setRange] = useState<Range>(defaultRange());
  const [groupBy, setGroupBy] = useState<GroupBy>('fleet');
  const [draft, setDraft] = useState({ from: dayInput(range.from), to: dayInput(range.to), groupBy });
  const [report, setReport] = useState<EconomicsReport | null>(null);
  const [hosts, setHosts] = useState<EconomicsReport | null>(null);
  const [suggestions, setSuggestions] = useState<PriceSuggestion[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    Promise.all([
      getEconomics(range, groupBy, controller.signal),
      getEconomics(range, 'host', controller.signal),
      getPriceSuggestions(range, 3000, controller.signal),
    ])
      .then(([grouped, perHost, suggested]) => {
        setReport(grouped);
        setHosts(perHost);
        setSuggestions(suggested.data);
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) {
          setError(e instanceof Error ? e.message : String(e));
        }
      });
    return () => controller.abort();
  }, [range.from, range.to, groupBy]);

  const apply = (e: Event) => {
    e.preventDefault();
    setRange({ from: `${draft.from}T00:00:00Z`, to: `${draft.to}T00:00:00Z` });
    setGroupBy(draft.groupBy);
  };

  const fleet = hosts ? sumGroups(hosts.data) : null;
  const currency = report?.currency ?? 'usd';
  const usageSummary = report
    ? `Utilization and net revenue per day, ${report.series.length} days: fleet utilization ${percent(fleet?.utilization_bps)},`
      + ` net revenue ${formatMoney(report.series.reduce((sum, d) => sum + d.net_revenue.amount, 0), currency)}.`
    : '';
  const waterfallSummary = fleet
    ? waterfallSteps(fleet).map((s, i) => (i === 0 || s.label === 'Net margin' ? `${s.label} ${formatMoney(s.to, currency)}`
      : `${s.label} −${formatMoney(s.from - s.to, currency)}`)).join(', ')
    : '';

  return (
    <section aria-labelledby="economics-heading">
      <h2 id="economics-heading">Economics</h2>
      <form class="economics-controls" onSubmit={apply}>
        <div>
          <label for="economics-from">From (UTC)</label>
          <input id="economics-from" type="date" value={draft.from} required
            onInput={(e) => setDraft({ ...draft, from: (e.target as HTMLInputElement).value })} />
        </div>
        <div>
          <label for="economics-to">To (UTC, exclusive)</label>
          <input id="economics-to" type="date" value={draft.to} required
            onInput={(e) => setDraft({ ...draft, to: (e.target as HTMLInputElement).value })} />
        </div>
        <div>
          <label for="economics-group">Group by</label>
          <select id="economics-group" value={draft.groupBy}
            onChange={(e) => setDraft({ ...draft, groupBy: (e.target as HTMLSelectElement).value as GroupBy })}>
            {GROUPINGS.map((g) => (
              <option key={g.value} value={g.value}>{g.label}</option>
            ))}
          </select>
        </div>
        <button id="economics-apply" type="submit">Show</button>
        <a id="economics-csv" href={economicsCsvUrl(range, groupBy)} download>Download CSV</a>
      </form>
      {error && (
        <p id="economics-error" class="problem" role="alert">{error}</p>
      )}
      {!report && !error && <p class="muted" role="status">Loading economics…</p>}
      {report && fleet && hosts && (
        <>
          <p id="economics-summary">
            {formatMoney(fleet.revenue.amount, currency)} revenue at {percent(fleet.utilization_bps)} utilization;
            net margin {formatMoney(fleet.net_margin.amount, currency)} ({percent(fleet.margin_bps)}).
          </p>
          <div class="economics-charts">
            <figure>
              <figcaption>Utilization and net revenue per day</figcaption>
              <UsageChart series={report.series} currency={currency} summary={usageSummary} />
              <p class="muted">{usageSummary}</p>
            </figure>
            <figure>
              <figcaption>From revenue to margin</figcaption>
              <MarginWaterfall group={fleet} summary={waterfallSummary} />
              <p class="muted">{waterfallSummary}.</p>
            </figure>
          </div>
          <EconomicsTables report={report} hosts={hosts} suggestions={suggestions} />
          <h3>Price suggestions</h3>
          <PriceSuggestions range={range} />
        </>
      )}
    </section>
  );
}
