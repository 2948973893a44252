/**
 * One telemetry chart (chart.js, a line per series over time) with its summary and the same data
 * as a table, so the chart is never the only way to read it.
 */
import type { Chart, ChartConfiguration } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import { chartJs } from '../../../chart-library';
import { formatDateTime } from '../../../format';
import { formatValue, summary, summaryLines, type ChartSpec } from './telemetry';

const COLOURS = ['#1d4ed8', '#b91c1c', '#047857', '#7c3aed', '#b45309', '#0e7490', '#be185d', '#4d7c0f', '#374151'];
const axisTime = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const clockTime = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const clockSeconds = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** Tick labels as precise as the span needs: minutes alone repeated the same label on a short span. */
function tickFormat(spec: ChartSpec): Intl.DateTimeFormat {
  const xs = spec.lines.flatMap((line) => line.points.map((p) => p.x));
  const span = xs.length > 0 ? Math.max(...xs) - Math.min(...xs) : 0;
  if (span <= 20 * 60_000) {
    return clockSeconds;
  }
  return span <= 20 * 3_600_000 ? clockTime : axisTime;
}

function config(spec: ChartSpec): ChartConfiguration<'line', { x: number; y: number }[]> {
  const ticks = tickFormat(spec);
  return {
    type: 'line',
    data: {
      datasets: spec.lines.map((line, i) => ({
        label: line.label,
        data: line.points,
        borderColor: COLOURS[i % COLOURS.length],
        backgroundColor: COLOURS[i % COLOURS.length],
        borderWidth: 2,
        pointRadius: line.points.length > 60 ? 0 : 2,
        tension: 0,
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      parsing: false,
      interaction: { mode: 'nearest', intersect: false },
      scales: {
        x: { type: 'linear', ticks: { maxTicksLimit: 4, callback: (value) => ticks.format(new Date(Number(value))) } },
        // from zero, so that a degree of noise does not look like a swing; a percentage up to 100
        y: { beginAtZero: true, ...(spec.unit === '%' ? { max: 100 } : {}), title: { display: true, text: spec.unit } },
      },
      plugins: {
        tooltip: {
          callbacks: {
            title: (items) => (items[0] ? axisTime.format(new Date(items[0].parsed.x ?? 0)) : ''),
            label: (item) => `${item.dataset.label}: ${formatValue(item.parsed.y, spec.unit)}`,
          },
        },
      },
    },
  };
}

export function TelemetryChart({ spec }: { spec: ChartSpec }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const points = spec.lines.reduce((sum, line) => sum + line.points.length, 0);
  const lines = summaryLines(spec);

  useEffect(() => {
    let chart: Chart<'line', { x: number; y: number }[]> | null = null;
    let gone = false;
    void chartJs().then((ChartJs) => {
      if (!gone && canvas.current) {
        chart = new ChartJs(canvas.current, config(spec));
      }
    });
    return () => {
      gone = true;
      chart?.destroy();
    };
  }, [spec]);

  const byLine = spec.lines.map((line) => new Map(line.points.map((p) => [p.x, p.y])));
  const times = Array.from(new Set(spec.lines.flatMap((line) => line.points.map((p) => p.x)))).sort((a, b) => a - b);
  return (
    <figure class="telemetry-chart" id={`chart-${spec.id}`} aria-labelledby={`chart-${spec.id}-title`}>
      <figcaption id={`chart-${spec.id}-title`} class="telemetry-chart__title">
        {spec.title} ({spec.unit})
      </figcaption>
      <div class="telemetry-chart__canvas">
        <canvas
          ref={canvas}
          role="img"
          aria-label={`${spec.title} over time. ${summary(spec)}`}
          data-points={points}
        />
      </div>
      {lines.length === 0 ? (
        <p class="telemetry-chart__summary" id={`chart-${spec.id}-summary`}>
          {summary(spec)}
        </p>
      ) : (
        // a line per series: run together, eight GPUs made a paragraph nobody could scan
        <ul class="telemetry-chart__summary" id={`chart-${spec.id}-summary`}>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      <details class="telemetry-chart__data">
        <summary>{spec.title}: the data as a table</summary>
        <div class="table-scroll">
          <table id={`chart-${spec.id}-table`}>
            <caption class="visually-hidden">
              {spec.title} ({spec.unit}) by time
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {spec.lines.map((line) => (
                  <th scope="col" key={line.label}>
                    {line.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {times.map((time) => (
                <tr key={time}>
                  <th scope="row">{formatDateTime(new Date(time).toISOString())}</th>
                  {spec.lines.map((line, i) => (
                    <td key={line.label}>{formatValue(byLine[i]?.get(time), spec.unit)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
