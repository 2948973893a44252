/**
 * The public catalog: `/api/v1/offers`, `/api/v1/gpu-models` and
 * `/api/v1/quotes`, plus the helpers the catalog pages share (money, hours,
 * local date-time inputs and problem field errors; the URL filters are in catalog-filters.ts).
 */
import { ApiError, getJson, postJson } from './api';
import { formatMoney } from './format';
import { csrfHeaders, getSession } from './session';
import type { TimeToReady } from './time-to-ready';
import { addWorkload, type ChosenWorkload, type WorkloadFit, type WorkloadSearchInfo } from './workloads';

/** An amount in the currency's minor unit (e.g. cents), e.g. `{amount: 210, currency: "usd"}`. */
export interface Money {
  amount: number;
  currency: string;
}

export interface PriceItem {
  kind: 'base' | 'duration_discount' | 'platform_fee' | 'tax' | string;
  description: string;
  /** Negative for discounts. */
  amount: Money;
}

export interface Hardware {
  cpu_model: string;
  cpu_cores: number;
  ram_gb: number;
  nvme_gb: number;
  /** null when the host's kernel does not report its link speed (VMs, containers). */
  net_gbps: number | null;
  interconnect: string;
  per_gpu: { cpu_cores: number; ram_gb: number; nvme_gb: number };
}

export interface OfferWindow {
  start: string;
  end: string;
  hours: number;
  /** The GPU count `window_total` is priced for. */
  gpu_count: number;
}

export interface Savings {
  /** Null when unknown; negative when this offer is more expensive. */
  vs_hyperscaler_percent: number | null;
  vs_specialized_percent: number | null;
  hyperscaler_per_gpu_hour: Money | null;
  specialized_per_gpu_hour: Money | null;
}

export interface Offer {
  id: string;
  host_id: string;
  host_name: string;
  site: string;
  region: string;
  country: string;
  gpu_model: string;
  architecture: string;
  vram_gb: number;
  gpus_total: number;
  gpus_available: number;
  /** GPU counts that can be booked together, e.g. [1, 2, 4, 8]. */
  gpu_counts: number[];
  bookable: boolean;
  /** container: an isolated container per reservation; whole_host: rented whole, to one renter at a time. */
  isolation?: 'container' | 'whole_host';
  /** Each image template on this host: cached, runnable here, and its measured ready times. */
  images?: OfferImage[];
  hardware: Hardware;
  price_per_gpu_hour: Money;
  all_in_per_gpu_hour: Money;
  window: OfferWindow;
  window_total: Money;
  price_items: PriceItem[];
  savings: Savings;
  /** The host's time-to-ready over 30 days; null while no instance has run on it. */
  time_to_ready?: TimeToReady | null;
  /** The host's uptime over the last 30 days (0–1), null before it has served. */
  uptime_30d: number | null;
  uptime: Uptime;
  /** Planned maintenance that makes this window unbookable. */
  maintenance: { id: string; starts_at: string; ends_at: string; drain: boolean } | null;
  /** Only with a workload: how it fits, at `window.gpu_count` GPUs. */
  fit?: WorkloadFit;
}

/** uptime = 1 − down time ÷ (period − planned maintenance); null without time in service. */
export interface Uptime {
  '24h': number | null;
  '7d': number | null;
  '30d': number | null;
  maintenance_hours_30d: number;
  down_hours_30d?: number;
}

const uptimeFormat = new Intl.NumberFormat(undefined, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 2 });

/** "99.58 %" in the viewer's locale, or "—" when there is no figure yet. */
export function formatUptime(value: number | null | undefined): string {
  return typeof value === 'number' ? uptimeFormat.format(value) : '—';
}

export interface Availability {
  /** The top of the current hour. */
  start: string;
  step_minutes: number;
  /** Free GPU count per step (336 hourly values for 14 days). */
  free: number[];
}

export interface PricePoint {
  amount_per_gpu_hour: Money;
  effective_from: string;
}

export interface OfferDetail extends Offer {
  availability: Availability;
  /** Oldest first. */
  price_history: PricePoint[];
}

export interface OfferPage {
  data: Offer[];
  next_cursor: string | null;
  /** Only with a workload: its parameters, what it needs, and what it would need when nothing fits. */
  workload?: WorkloadSearchInfo;
}

export interface Quote {
  id: string;
  offer_id: string;
  gpu_count: number;
  start: string;
  end: string;
  hours: number;
  price_per_gpu_hour: Money;
  items: PriceItem[];
  total: Money;
  expires_at: string;
  cancellation_policy: string;
  /** The ready guarantee and downtime credit, in words. */
  ready_guarantee?: string;
}

export interface QuoteRequest {
  offer_id: string;
  gpu_count: number;
  start: string;
  hours: number;
}

export interface ReferencePrice {
  price: Money;
  source: string;
  as_of: string;
}

export interface GpuModel {
  name: string;
  vram_gb: number;
  architecture: string;
  reference_prices: { hyperscaler: ReferencePrice | null; specialized: ReferencePrice | null };
}

export const MIN_HOURS = 1;
export const MAX_HOURS = 720;
export const OFFER_PAGE_SIZE = 24;

// ---------------------------------------------------------------------------
// API calls
// ---------------------------------------------------------------------------

export function listOffers(query: URLSearchParams, signal?: AbortSignal): Promise<OfferPage> {
  const qs = query.toString();
  return getJson<OfferPage>(`/api/v1/offers${qs ? `?${qs}` : ''}`, { signal });
}

export function getOffer(
  id: string,
  window: { start?: string; hours?: number },
  signal?: AbortSignal,
  workload: ChosenWorkload | null = null,
): Promise<OfferDetail> {
  const query = addWorkload(new URLSearchParams(), workload);
  if (window.start) {
    query.set('start', window.start);
  }
  if (window.hours !== undefined) {
    query.set('hours', String(window.hours));
  }
  const qs = query.toString();
  return getJson<OfferDetail>(`/api/v1/offers/${encodeURIComponent(id)}${qs ? `?${qs}` : ''}`, { signal });
}

export function listGpuModels(signal?: AbortSignal): Promise<{ data: GpuModel[] }> {
  return getJson<{ data: GpuModel[] }>('/api/v1/gpu-models', { signal });
}

/** `POST /api/v1/quotes`; sends the CSRF header whenever a session exists. */
export function createQuote(request: QuoteRequest): Promise<Quote> {
  return postJson<Quote>('/api/v1/quotes', request, { headers: csrfHeaders(getSession().me) });
}

export function getQuote(id: string, signal?: AbortSignal): Promise<Quote> {
  return getJson<Quote>(`/api/v1/quotes/${encodeURIComponent(id)}`, { signal, cache: 'no-store' });
}

// ---------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------

export function money(value: Money | null | undefined): string {
  if (!value || typeof value.amount !== 'number' || !value.currency) {
    return '—';
  }
  return formatMoney(value.amount, value.currency);
}

const integerFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export function formatCount(value: number): string {
  return integerFormat.format(value);
}

/** "1 GPU", "8 GPUs" */
export function gpusLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'GPU' : 'GPUs'}`;
}

/** "80 GB" */
export function formatGb(value: number): string {
  return `${formatCount(value)} GB`;
}

/** A percentage as shown in badges: "55 %". */
export function formatPercent(value: number): string {
  return `${formatCount(Math.round(value))} %`;
}

// ---------------------------------------------------------------------------
// Times: <input type="datetime-local"> (viewer's zone) ↔ RFC 3339 UTC
// ---------------------------------------------------------------------------

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** RFC 3339 UTC without milliseconds: "2026-11-03T14:00:00Z". */
export function toUtcIso(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A datetime-local value ("2026-11-03T15:00", the viewer's time zone) as an
 * RFC 3339 UTC instant; null when empty or invalid.
 */
export function localInputToUtc(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) {
    return null;
  }
  // A date-time without an offset is parsed in the local time zone.
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : toUtcIso(date);
}

/** An instant as a datetime-local value in the viewer's time zone ("" when invalid). */
export function utcToLocalInput(iso: string | null | undefined): string {
  if (!iso) {
    return '';
  }
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) {
    return '';
  }
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

export function isValidInstant(value: string | null | undefined): value is string {
  return typeof value === 'string' && value !== '' && !Number.isNaN(new Date(value).getTime());
}

/** A whole number of hours in 1..720, or null. */
export function parseHours(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^\s*\d+\s*$/.test(value)) {
    return null;
  }
  const hours = Number(value);
  return hours >= MIN_HOURS && hours <= MAX_HOURS ? hours : null;
}

// ---------------------------------------------------------------------------
// Problem details → per-field messages
// ---------------------------------------------------------------------------

export interface FieldProblem {
  /** The field name from the JSON pointer, e.g. "hours" for "#/hours". */
  field: string;
  detail: string;
}

export function fieldProblems(error: unknown): FieldProblem[] {
  if (!(error instanceof ApiError) || !Array.isArray(error.problem?.errors)) {
    return [];
  }
  return (error.problem.errors as unknown[]).flatMap((entry) => {
    if (!entry || typeof entry !== 'object') {
      return [];
    }
    const { pointer, detail } = entry as { pointer?: unknown; detail?: unknown };
    if (typeof detail !== 'string') {
      return [];
    }
    const field = typeof pointer === 'string' ? pointer.replace(/^#?\//, '').split('/')[0] ?? '' : '';
    return [{ field, detail }];
  });
}

export function errorText(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) {
    return error.message;
  }
  return fallback;
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** `/catalog/{id}` with the window the visitor was looking at. */
export function offerHref(
  id: string,
  window: { start?: string; hours?: string | number; gpus?: number },
  workload: ChosenWorkload | null = null,
): string {
  const params = new URLSearchParams();
  if (window.start) {
    params.set('start', window.start);
  }
  params.set('hours', String(window.hours || 1));
  if (window.gpus && window.gpus > 1) {
    params.set('gpus', String(window.gpus));
  }
  addWorkload(params, workload);
  return `/catalog/${encodeURIComponent(id)}?${params.toString()}`;
}

/** An image template as an offer shows it: cached on the host, runnable there, ready times of its starts. */
export interface OfferImage {
  id: string;
  name: string;
  /** The host's image cache holds it: no download before the start. */
  cached: boolean;
  /** False when the host's NVIDIA driver or CUDA is older than the template's minimum. */
  available?: boolean;
  unavailable_reason?: string | null;
  min_driver_version?: string | null;
  min_cuda_version?: string | null;
  /** Starts of this template on this host, last 30 days: with the image cached, and with a download first. */
  time_to_ready?: { cached: TimeToReady | null; uncached: TimeToReady | null };
}
