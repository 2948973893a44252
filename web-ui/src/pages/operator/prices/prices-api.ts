/** The operator's prices and terms of sale: `/api/v1/operator/prices`, `…/offers/{id}/price`, `…/default-prices/…`, `…/settings`. */
import { fetchJson, getJson } from '../../../api';
import type { Money } from '../../../offers';
import { csrfHeaders, type Me } from '../../../session';

export interface PriceRow {
  price: Money;
  effective_from: string;
  status: 'current' | 'scheduled';
  set_by: string;
  set_at: string;
}

export interface PriceTarget {
  kind: 'offer' | 'default';
  offer_id?: string;
  host_name?: string;
  gpu_model?: string;
  site_id?: string;
  site_name?: string;
  applies?: { price: Money; source: 'offer' | 'default'; effective_from: string } | null;
  current: PriceRow | null;
  scheduled: PriceRow[];
}

export interface PriceChange {
  amount: number;
  currency: string;
  effective_at?: string;
}

export interface DurationDiscount {
  min_hours: number;
  discount_bps: number;
}

export interface OperatorSettings {
  duration_discounts: DurationDiscount[];
  platform_fee_bps: number;
  tax_bps: number;
  cancellation_fee_bps: number;
  currency: string;
  updated_at: string | null;
  updated_by: string | null;
}

export function listPrices(signal?: AbortSignal): Promise<{ data: PriceTarget[] }> {
  return getJson('/api/v1/operator/prices', { signal, cache: 'no-store' });
}

export function setOfferPrice(me: Me, offerId: string, change: PriceChange): Promise<PriceRow> {
  return fetchJson(`/api/v1/operator/offers/${encodeURIComponent(offerId)}/price`, {
    method: 'PUT', body: change, headers: csrfHeaders(me),
  });
}

export function setDefaultPrice(me: Me, gpuModel: string, siteId: string, change: PriceChange): Promise<PriceRow> {
  return fetchJson(`/api/v1/operator/default-prices/${encodeURIComponent(gpuModel)}/${encodeURIComponent(siteId)}`, {
    method: 'PUT', body: change, headers: csrfHeaders(me),
  });
}

export function getSettings(signal?: AbortSignal): Promise<OperatorSettings> {
  return getJson('/api/v1/operator/settings', { signal, cache: 'no-store' });
}

export function putSettings(
  me: Me,
  settings: Pick<OperatorSettings, 'duration_discounts' | 'platform_fee_bps' | 'tax_bps' | 'cancellation_fee_bps'>,
): Promise<OperatorSettings> {
  return fetchJson('/api/v1/operator/settings', { method: 'PUT', body: settings, headers: csrfHeaders(me) });
}

/** Basis points as a percentage for a person: 250 → "2.5 %". */
export function percent(bps: number): string {
  return `${(bps / 100).toLocaleString(undefined, { maximumFractionDigits: 2 })}\u00a0%`;
}

/** A decimal amount typed by a person ("1.99") in minor units (199), or null when it is not one. */
export function toMinor(text: string, fractionDigits: number): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(trimmed)) {
    return null;
  }
  const [whole, fraction = ''] = trimmed.split('.');
  if (fraction.length > fractionDigits) {
    return null;
  }
  return Number(whole) * 10 ** fractionDigits + Number(fraction.padEnd(fractionDigits, '0') || '0');
}
