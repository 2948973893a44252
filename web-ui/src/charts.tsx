/**
 * Small, dependency-free charts for the offer page: the hourly availability
 * heat strip (a table, one row per local day) and the price-history step chart
 * (SVG, plus the values as a table). No inline styles: colours come from
 * classes, so the strict CSP holds.
 */
import { formatDateTime } from './format';
import { formatCount, money, type Availability, type PricePoint } from './offers';
import './charts.css';

const HOUR_MS = 60 * 60 * 1000;

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** 0 = none free, 1 = under a third, 2 = under two thirds, 3 = some busy, 4 = all free. */
export function availabilityLevel(free: number, total: number): 0 | 1 | 2 | 3 | 4 {
  if (free <= 0 || total <= 0) {
    return 0;
  }
  if (free >= total) {
    return 4;
  }
  const ratio = free / total;
  return ratio < 1 / 3 ? 1 : ratio < 2 / 3 ? 2 : 3;
}

const LEVEL_LABELS = ['None free', 'Few free', 'About half free', 'Most free', 'All free'] as const;

/** One or two sentences on what the strip shows, for everyone (and screen readers first). */
export function availabilitySummary(availability: Availability, total: number): string {
  const free = Array.isArray(availability?.free) ? availability.free : [];
  const stepMs = (availability?.step_minutes || 60) * 60 * 1000;
  const startMs = new Date(availability?.start).getTime();
  if (free.length === 0 || total <= 0 || Number.isNaN(startMs)) {
    return 'No availability data for this offer.';
  }
  const hoursIn = (cells: number) => Math.round((cells * stepMs) / HOUR_MS);
  const at = (index: number) => formatDateTime(new Date(startMs + index * stepMs).toISOString());
  const days = Math.round((free.length * stepMs) / (24 * HOUR_MS));
  const span = `${plural(hoursIn(free.length), 'hour', 'hours')}${days >= 1 ? ` (${plural(days, 'day', 'days')})` : ''}`;

  const leadingFull = free.findIndex((value) => value < total);
  let first: string;
  if (leadingFull === -1) {
    // the breakdown below would only repeat it
    return `Fully free for the next ${span}.`;
  } else if (leadingFull > 0) {
    first = `Fully free for the next ${plural(hoursIn(leadingFull), 'hour', 'hours')}, until ${at(leadingFull)}.`;
  } else if ((free[0] ?? 0) > 0) {
    const nextFull = free.findIndex((value) => value >= total);
    first =
      `${formatCount(free[0] ?? 0)} of ${plural(total, 'GPU', 'GPUs')} free now.` +
      (nextFull > 0 ? ` Fully free from ${at(nextFull)}.` : '');
  } else {
    const nextFree = free.findIndex((value) => value > 0);
    first =
      nextFree === -1 ? `Fully booked for the next ${span}.` : `Fully booked now; GPUs free again from ${at(nextFree)}.`;
  }

  const full = free.filter((value) => value >= total).length;
  const none = free.filter((value) => value <= 0).length;
  const partly = free.length - full - none;
  return (
    `${first} Over the next ${span}: fully free ${formatCount(hoursIn(full))} h, ` +
    `partly free ${formatCount(hoursIn(partly))} h, fully booked ${formatCount(hoursIn(none))} h.`
  );
}

interface Cell {
  index: number;
  start: Date;
  end: Date;
  free: number;
}

interface Row {
  key: string;
  label: string;
  /** Cells placed by local hour; null where the window does not reach. */
  slots: (Cell | null)[];
}

function buildRows(availability: Availability): Row[] {
  const stepMs = (availability.step_minutes || 60) * 60 * 1000;
  const startMs = new Date(availability.start).getTime();
  const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
  const rows: Row[] = [];
  let row: Row | null = null;
  availability.free.forEach((free, index) => {
    const start = new Date(startMs + index * stepMs);
    const key = `${start.getFullYear()}-${start.getMonth()}-${start.getDate()}`;
    if (!row || row.key !== key) {
      row = { key, label: dayFormat.format(start), slots: [] };
      rows.push(row);
    }
    // Place by local hour; a skipped hour (daylight saving) stays empty, a repeated one is appended.
    while (row.slots.length < start.getHours()) {
      row.slots.push(null);
    }
    row.slots.push({ index, start, end: new Date(start.getTime() + stepMs), free: Math.max(0, free) });
  });
  for (const each of rows) {
    while (each.slots.length < 24) {
      each.slots.push(null);
    }
  }
  return rows;
}

export function AvailabilityStrip({ availability, total }: { availability: Availability; total: number }) {
  const free = Array.isArray(availability?.free) ? availability.free : [];
  const summary = availabilitySummary(availability, total);
  if (free.length === 0 || Number.isNaN(new Date(availability.start).getTime())) {
    return (
      <p id="availability-summary" class="muted">
        {summary}
      </p>
    );
  }
  const rows = buildRows(availability);
  const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
  const hourFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric' });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const base = new Date(2000, 0, 1);
  const hourLabels = Array.from({ length: 24 }, (_, hour) => {
    base.setHours(hour, 0, 0, 0);
    return hourFormat.format(base);
  });

  return (
    <>
      <p id="availability-summary" class="availability-summary">
        {summary}
      </p>
      <ul class="availability-legend" aria-label="Colour key">
        {[4, 3, 2, 1, 0].map((level) => (
          <li key={level}>
            <span class={`avail-swatch avail--${level}`} aria-hidden="true" />
            {LEVEL_LABELS[level]}
          </li>
        ))}
      </ul>
      <div
        id="availability"
        class="table-wrap availability-wrap"
        role="region"
        aria-labelledby="availability-caption"
        tabIndex={0}
      >
        <table class="availability-table">
          <caption id="availability-caption" class="visually-hidden">
            Free GPUs per hour for the next {rows.length} days, by day and hour in your time zone
            {zone ? ` (${zone})` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col" class="availability-table__corner">
                <span class="visually-hidden">Day</span>
              </th>
              {hourLabels.map((label, hour) => (
                <th
                  key={hour}
                  scope="col"
                  class={`availability-table__hour${hour % 6 === 0 ? ' hour--major' : hour % 3 === 0 ? ' hour--minor' : ''}`}
                >
                  <span class="availability-table__hour-label">{label}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row" class="availability-table__day">
                  {row.label}
                </th>
                {row.slots.map((cell, slot) =>
                  cell ? (
                    <td
                      key={slot}
                      class={`avail-cell avail--${availabilityLevel(cell.free, total)}`}
                      data-free={cell.free}
                      data-index={cell.index}
                      title={`${row.label}, ${timeFormat.format(cell.start)}–${timeFormat.format(cell.end)}: ${formatCount(cell.free)} of ${formatCount(total)} free`}
                      aria-label={`${row.label}, ${timeFormat.format(cell.start)} to ${timeFormat.format(cell.end)}: ${formatCount(cell.free)} of ${plural(total, 'GPU', 'GPUs')} free`}
                    />
                  ) : (
                    <td key={slot} class="avail-cell avail--outside" />
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="hint">
        Times in your time zone{zone ? ` (${zone})` : ''}. Hover or focus the table to read each hour.
      </p>
    </>
  );
}

// ---------------------------------------------------------------------------
// Price history
// ---------------------------------------------------------------------------

const CHART_W = 1000;
const CHART_H = 100;
const PLOT_TOP = 10;
const PLOT_BOTTOM = 90;

export function PriceHistory({ history }: { history: PricePoint[] }) {
  const points = (Array.isArray(history) ? history : [])
    .filter((point) => point?.amount_per_gpu_hour && !Number.isNaN(new Date(point.effective_from).getTime()))
    .slice()
    .sort((a, b) => new Date(a.effective_from).getTime() - new Date(b.effective_from).getTime());

  if (points.length === 0) {
    return (
      <p id="price-history-empty" class="muted">
        No price history recorded for this offer.
      </p>
    );
  }

  const first = points[0]!;
  const last = points[points.length - 1]!;
  const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

  const table = (
    <div class="table-wrap price-history-wrap" role="region" aria-labelledby="price-history-caption" tabIndex={0}>
      <table id="price-history" class="data-table price-history-table">
        <caption id="price-history-caption" class="visually-hidden">
          Price per GPU-hour since each date, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">Price per GPU-hour</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {points
            .map((point, index) => ({ point, previous: index > 0 ? points[index - 1] : undefined }))
            .reverse()
            .map(({ point, previous }) => {
              const before = previous?.amount_per_gpu_hour.amount;
              const now = point.amount_per_gpu_hour.amount;
              const change = before ? ((now - before) / before) * 100 : null;
              return (
                <tr key={point.effective_from}>
                  <td>{formatDateTime(point.effective_from)}</td>
                  <td>{money(point.amount_per_gpu_hour)}</td>
                  <td class={change === null ? 'muted' : change < 0 ? 'change--down' : change > 0 ? 'change--up' : ''}>
                    {change === null
                      ? 'First price'
                      : change === 0
                        ? 'No change'
                        : `${change > 0 ? '+' : '−'}${Math.abs(change).toFixed(1)} %`}
                  </td>
                </tr>
              );
            })}
        </tbody>
      </table>
    </div>
  );

  if (points.length === 1) {
    return (
      <>
        <p id="price-history-summary">
          {money(first.amount_per_gpu_hour)} per GPU-hour since {formatDateTime(first.effective_from)}, unchanged.
        </p>
        {table}
      </>
    );
  }

  const amounts = points.map((point) => point.amount_per_gpu_hour.amount);
  const min = Math.min(...amounts);
  const max = Math.max(...amounts);
  const t0 = new Date(first.effective_from).getTime();
  const t1 = Math.max(Date.now(), new Date(last.effective_from).getTime() + HOUR_MS);
  const x = (iso: string) => ((new Date(iso).getTime() - t0) / (t1 - t0)) * CHART_W;
  const y = (amount: number) =>
    max === min ? (PLOT_TOP + PLOT_BOTTOM) / 2 : PLOT_BOTTOM - ((amount - min) / (max - min)) * (PLOT_BOTTOM - PLOT_TOP);

  let path = `M0 ${y(first.amount_per_gpu_hour.amount).toFixed(2)}`;
  for (const point of points.slice(1)) {
    path += ` H${x(point.effective_from).toFixed(2)} V${y(point.amount_per_gpu_hour.amount).toFixed(2)}`;
  }
  path += ` H${CHART_W}`;
  const area = `${path} V${CHART_H} H0 Z`;

  const currency = first.amount_per_gpu_hour.currency;
  const changes = points.length - 1;
  const description =
    `Price per GPU-hour from ${money(first.amount_per_gpu_hour)} on ${dateFormat.format(new Date(first.effective_from))} ` +
    `to ${money(last.amount_per_gpu_hour)} now, ${plural(changes, 'change', 'changes')}; ` +
    `lowest ${money({ amount: min, currency })}, highest ${money({ amount: max, currency })}.`;

  return (
    <>
      <p id="price-history-summary">{description}</p>
      <figure class="price-chart" aria-hidden="true">
        <div class="price-chart__plot">
          <div class="price-chart__axis">
            {max === min ? (
              <span class="price-chart__label price-chart__label--mid">{money({ amount: max, currency })}</span>
            ) : (
              <>
                <span class="price-chart__label price-chart__label--max">{money({ amount: max, currency })}</span>
                <span class="price-chart__label price-chart__label--min">{money({ amount: min, currency })}</span>
              </>
            )}
          </div>
          <svg
            class="price-chart__svg"
            viewBox={`0 0 ${CHART_W} ${CHART_H}`}
            preserveAspectRatio="none"
            focusable="false"
          >
            <line class="price-chart__grid" x1="0" x2={CHART_W} y1={PLOT_TOP} y2={PLOT_TOP} vector-effect="non-scaling-stroke" />
            <line
              class="price-chart__grid"
              x1="0"
              x2={CHART_W}
              y1={PLOT_BOTTOM}
              y2={PLOT_BOTTOM}
              vector-effect="non-scaling-stroke"
            />
            <path class="price-chart__area" d={area} />
            <path class="price-chart__line" d={path} vector-effect="non-scaling-stroke" />
            {points.map((point) => (
              <path
                key={point.effective_from}
                class="price-chart__dot"
                d={`M${x(point.effective_from).toFixed(2)} ${y(point.amount_per_gpu_hour.amount).toFixed(2)} h0`}
                vector-effect="non-scaling-stroke"
              />
            ))}
          </svg>
        </div>
        <div class="price-chart__dates">
          <span>{dateFormat.format(new Date(t0))}</span>
          <span>Now</span>
        </div>
      </figure>
      {table}
    </>
  );
}
