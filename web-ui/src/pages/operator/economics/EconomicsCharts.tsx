/**
 * The Economics page's charts through chart.js: utilization and net revenue per day, and the
 * margin waterfall (floating bars). Each canvas has a text alternative; the page shows the same
 * numbers in tables next to them. The canvas gets `data-points` once drawn (for tests and tools).
 */
import type { ChartConfiguration } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import { chartJs } from '../../../chart-library';
import { formatMoney } from '../../../format';
import type { EconomicsDay, EconomicsGroup } from './economics-api';

function useChart(config: ChartConfiguration, points: number) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let gone = false;
    chartJs().then((Chart) => {
      if (gone || !canvas.current) {
        return;
      }
      chart = new Chart(canvas.current, { ...config, options: { ...config.options, animation: false } });
      canvas.current.dataset.points = String(points);
    });
    return () => {
      gone = true;
      chart?.destroy();
    };
  }, [JSON.stringify(config.data), points]);
  return canvas;
}

const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Utilization (%, line, left axis) and net revenue (bars, right axis) per day. */
export function UsageChart({ series, currency, summary }: { series: EconomicsDay[]; currency: string; summary: string }) {
  const digits = 100;
  const canvas = useChart(
    {
      type: 'bar',
      data: {
        labels: series.map((d) => dayLabel.format(new Date(d.start))),
        datasets: [
          {
            type: 'line',
            label: 'Utilization (%)',
            data: series.map((d) => (d.utilization_bps ?? 0) / 100),
            yAxisID: 'utilization',
            borderColor: '#1d4ed8',
            backgroundColor: '#1d4ed8',
          },
          {
            type: 'bar',
            label: `Net revenue (${currency.toUpperCase()})`,
            data: series.map((d) => d.net_revenue.amount / digits),
            yAxisID: 'revenue',
            backgroundColor: '#059669',
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          utilization: { type: 'linear', position: 'left', min: 0, max: 100, title: { display: true, text: '%' } },
          revenue: { type: 'linear', position: 'right', grid: { drawOnChartArea: false },
            title: { display: true, text: currency.toUpperCase() } },
        },
      },
    },
    series.length,
  );
  return (
    <div class="chart-box">
      <canvas id="usage-chart" ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}

/** The steps from revenue to net margin, each a floating bar from the running total. */
export function waterfallSteps(g: EconomicsGroup): { label: string; from: number; to: number }[] {
  const steps: { label: string; from: number; to: number }[] = [];
  let total = g.revenue.amount;
  steps.push({ label: 'Revenue', from: 0, to: total });
  const minus = (label: string, amount: number) => {
    steps.push({ label, from: total, to: total - amount });
    total -= amount;
  };
  minus('Refunds & credits', g.refunds_and_credits.amount);
  minus('Card fees', g.card_fees.amount);
  minus('Energy', g.energy.cost.amount);
  minus('Other costs', g.other_costs.amount);
  minus('Depreciation', g.depreciation.amount);
  steps.push({ label: 'Net margin', from: 0, to: total });
  return steps;
}

export function MarginWaterfall({ group, summary }: { group: EconomicsGroup; summary: string }) {
  const steps = waterfallSteps(group);
  const currency = group.revenue.currency;
  const canvas = useChart(
    {
      type: 'bar',
      data: {
        labels: steps.map((s) => s.label),
        datasets: [
          {
            label: currency.toUpperCase(),
            data: steps.map((s) => [s.from / 100, s.to / 100]),
            backgroundColor: steps.map((s, i) =>
              i === 0 ? '#059669' : i === steps.length - 1 ? (s.to >= 0 ? '#1d4ed8' : '#b91c1c') : '#d97706'),
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              label: (item) => {
                const step = steps[item.dataIndex];
                return step ? formatMoney(step.to - step.from, currency) : '';
              },
            },
          },
        },
      },
    },
    steps.length,
  );
  return (
    <div class="chart-box">
      <canvas id="waterfall-chart" ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}
