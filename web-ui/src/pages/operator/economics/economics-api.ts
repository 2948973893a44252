/** The operator's economics: `/api/v1/operator/economics` and `/api/v1/operator/price-suggestions`. */
import { getJson } from '../../../api';

export interface Money {
  amount: number;
  currency: string;
}

export type GroupBy = 'fleet' | 'site' | 'host' | 'gpu_model';

export interface EconomicsGroup {
  key: string;
  label: string;
  hosts: number;
  available_gpu_hours: number;
  booked_gpu_hours: number;
  utilization_bps: number | null;
  list_price: Money | null;
  effective_rate: Money | null;
  revenue: Money;
  refunds: Money;
  credits: Money;
  refunds_and_credits: Money;
  card_fees: Money;
  payments_without_fee: number;
  energy: {
    it_kwh: number;
    facility_kwh: number;
    cost: Money;
    covered_hours: number;
    missing_hours: number;
  };
  other_costs: Money;
  depreciation: Money;
  net_margin: Money;
  margin_bps: number | null;
  break_even_utilization_bps: number | null;
  payback: {
    purchase_price: Money;
    contribution: Money;
    progress_bps: number | null;
    contribution_to_date: Money | null;
    progress_to_date_bps: number | null;
    months_to_payback: number | null;
  };
  hosts_without_costs: number;
  notes: string[];
}

export interface EconomicsDay {
  start: string;
  available_gpu_hours: number;
  booked_gpu_hours: number;
  utilization_bps: number | null;
  net_revenue: Money;
}

export interface EconomicsReport {
  from: string;
  to: string;
  range_hours: number;
  currency: string;
  group_by: GroupBy;
  data: EconomicsGroup[];
  series: EconomicsDay[];
}

export interface PriceSuggestion {
  offer_id: string;
  host_id: string;
  host_name: string;
  gpu_model: string | null;
  list_price: Money | null;
  utilization_bps: number | null;
  booked_gpu_hours: number;
  costs: Money;
  break_even_price: Money | null;
  target_margin_bps: number;
  target_price: Money | null;
  reference_prices: {
    hyperscaler: (Money & { source: string | null }) | null;
    specialized: (Money & { source: string | null }) | null;
    as_of: string | null;
  };
  notes: string[];
}

export interface Range {
  from: string;
  to: string;
}

function query(range: Range, extra: Record<string, string>): string {
  return new URLSearchParams({ from: range.from, to: range.to, ...extra }).toString();
}

export function getEconomics(range: Range, groupBy: GroupBy, signal?: AbortSignal): Promise<EconomicsReport> {
  return getJson<EconomicsReport>(`/api/v1/operator/economics?${query(range, { group_by: groupBy })}`, { signal });
}

/** The same report as CSV, for a download link (a link cannot send `Accept: text/csv`). */
export function economicsCsvUrl(range: Range, groupBy: GroupBy): string {
  return `/api/v1/operator/economics?${query(range, { group_by: groupBy, format: 'csv' })}`;
}

export function getPriceSuggestions(
  range: Range | null,
  targetMarginBps: number,
  signal?: AbortSignal,
): Promise<{ data: PriceSuggestion[]; target_margin_bps: number }> {
  const params = new URLSearchParams({ target_margin_bps: String(targetMarginBps) });
  if (range) {
    params.set('from', range.from);
    params.set('to', range.to);
  }
  return getJson(`/api/v1/operator/price-suggestions?${params.toString()}`, { signal });
}

/** Whole UTC days: from `daysBack` days before today to `daysAhead` days after it (midnights, UTC). */
export function defaultRange(daysBack = 23, daysAhead = 7): Range {
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  const day = 24 * 60 * 60 * 1000;
  return {
    from: new Date(today.getTime() - daysBack * day).toISOString(),
    to: new Date(today.getTime() + daysAhead * day).toISOString(),
  };
}

/** "12.5 %" from basis points, in the viewer's locale; "—" for none. */
export function percent(bps: number | null | undefined): string {
  if (bps === null || bps === undefined) {
    return '—';
  }
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(bps / 10_000);
}
