/** A host's telemetry series: `GET /api/v1/operator/hosts/{id}/telemetry`, and what the charts draw from it. */
import { getJson } from '../../../api';

export interface HostPoint {
  at: string;
  power_w: number | null;
  disk_free_gb: number | null;
  rtt_ms: number | null;
}

export interface GpuPoint {
  at: string;
  temperature_c: number | null;
  temperature_max_c: number | null;
  power_draw_w: number | null;
  utilization_pct: number | null;
}

export interface TelemetrySeries {
  host_id: string;
  from: string;
  to: string;
  resolution: 'raw' | 'hour';
  bucket_seconds: number;
  max_points: number;
  host: HostPoint[];
  gpus: { index: number; points: GpuPoint[] }[];
}

/** The ranges the host page offers. */
export const RANGES = [
  { id: '6h', label: '6 hours', hours: 6 },
  { id: '48h', label: '48 hours', hours: 48 },
  { id: '7d', label: '7 days', hours: 24 * 7 },
  { id: '30d', label: '30 days', hours: 24 * 30 },
] as const;

export type RangeId = (typeof RANGES)[number]['id'];

export function fetchTelemetry(hostId: string, range: RangeId, signal?: AbortSignal): Promise<TelemetrySeries> {
  const hours = RANGES.find((r) => r.id === range)?.hours ?? 6;
  const to = new Date();
  const from = new Date(to.getTime() - hours * 3600 * 1000);
  const query = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
  return getJson(`/api/v1/operator/hosts/${encodeURIComponent(hostId)}/telemetry?${query}`, {
    signal,
    cache: 'no-store',
  });
}

/** One line of a chart: a label and its points (x: epoch milliseconds). */
export interface Line {
  label: string;
  points: { x: number; y: number }[];
}

/** What one chart shows: a title, the unit of its values and its lines. */
export interface ChartSpec {
  id: string;
  title: string;
  unit: string;
  lines: Line[];
}

function line(label: string, points: { at: string; value: number | null }[]): Line {
  return {
    label,
    points: points
      .filter((p): p is { at: string; value: number } => p.value !== null && Number.isFinite(p.value))
      .map((p) => ({ x: new Date(p.at).getTime(), y: p.value })),
  };
}

/** The three charts of the host page: temperature, power, utilization. */
export function chartSpecs(series: TelemetrySeries): ChartSpec[] {
  const perGpu = (value: (p: GpuPoint) => number | null) =>
    series.gpus.map((gpu) => line(`GPU ${gpu.index}`, gpu.points.map((p) => ({ at: p.at, value: value(p) }))));
  return [
    { id: 'temperature', title: 'GPU temperature', unit: '°C', lines: perGpu((p) => p.temperature_c) },
    {
      id: 'power',
      title: 'Power',
      unit: 'W',
      lines: [
        line('Host (wall)', series.host.map((p) => ({ at: p.at, value: p.power_w }))),
        ...perGpu((p) => p.power_draw_w),
      ],
    },
    { id: 'utilization', title: 'GPU utilization', unit: '%', lines: perGpu((p) => p.utilization_pct) },
  ];
}

const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export function formatValue(value: number | null | undefined, unit: string): string {
  return value === null || value === undefined ? '—' : `${number.format(value)} ${unit}`;
}

/** Per line, its lowest, average and highest value over the range (lines without points left out). */
export function summaryLines(spec: ChartSpec): string[] {
  return spec.lines
    .filter((l) => l.points.length > 0)
    .map((l) => {
      const values = l.points.map((p) => p.y);
      const avg = values.reduce((a, b) => a + b, 0) / values.length;
      return `${l.label}: lowest ${formatValue(Math.min(...values), spec.unit)}, average ${formatValue(avg, spec.unit)}, highest ${formatValue(Math.max(...values), spec.unit)}`;
    });
}

/** The same as one text: a sentence per line. */
export function summary(spec: ChartSpec): string {
  const parts = summaryLines(spec);
  return parts.length === 0 ? `No ${spec.title.toLowerCase()} data in this range.` : `${parts.join('. ')}.`;
}
