/**
 * Time-to-ready: how long instances took from being due (window start or payment, whichever
 * is later) to running, over 30 days, as `/api/v1/offers` and `/api/v1/catalog/summary` give it.
 */
import { getJson } from './api';

export interface TimeToReady {
  p50_seconds: number;
  p95_seconds: number;
  samples: number;
}

export interface CatalogSummary {
  /** Fleet-wide; null while no instance has run yet. */
  time_to_ready: TimeToReady | null;
}

export function getCatalogSummary(signal?: AbortSignal): Promise<CatalogSummary> {
  return getJson<CatalogSummary>('/api/v1/catalog/summary', { signal });
}

/** "45 sec", "3 min", "1.5 hr": seconds under 90 s, minutes under 90 min, else hours, in the viewer's locale. */
export function formatSeconds(seconds: number, locale?: string): string {
  const [value, unit] =
    seconds < 90 ? [seconds, 'second'] : seconds < 90 * 60 ? [Math.round(seconds / 60), 'minute'] : [seconds / 3600, 'hour'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(
    value,
  );
}

/** The catalog card's line: "Ready in ~45 sec" (the median), or "Ready time: no data yet". */
export function readyLine(figure: TimeToReady | null | undefined): string {
  return figure ? `Ready in ~${formatSeconds(figure.p50_seconds)}` : 'Ready time: no data yet';
}
