/**
 * Payments: `/api/v1/payments` (your card payments with their refunds), the saved card
 * (`/api/v1/payment-methods`, `/setup`, `DELETE /{id}`), labels, and the 402 answer of a
 * saved-card charge. Every call needs a signed-in session; POST/DELETE send the CSRF header.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useMounted } from './hooks';
import { ApiError, fetchJson, getJson, postJson } from './api';
import type { Money, PriceItem } from './offers';
import { csrfHeaders, type Me } from './session';

export type RefundReason = 'cancellation' | 'late_payment' | 'downtime_credit' | 'operator' | 'ready_credit';
export type RefundStatus = 'pending' | 'succeeded' | 'failed';
export type PaymentStatus = 'pending' | 'succeeded' | 'failed' | 'refunded' | 'canceled';

export interface Refund {
  id: string;
  amount: Money;
  reason: RefundReason | string;
  status: RefundStatus | string;
  created_at: string;
  /** A credit is goodwill an operator gave; a refund gives back what was not delivered. */
  kind?: 'refund' | 'credit' | string;
  /** The operator's reason, for manual refunds and credits. */
  note?: string | null;
}

/** What a payment paid for. The contract only says "itemized price"; read defensively. */
export interface Receipt {
  items?: PriceItem[];
  total?: Money;
  [extra: string]: unknown;
}

/** One card payment (of a reservation, or of one of its extensions). */
export interface Payment {
  id: string;
  reservation_id: string;
  extension_id?: string | null;
  method?: 'checkout' | 'saved_card' | string;
  /** Minor units of `currency`. */
  amount: number;
  amount_refunded: number;
  currency: string;
  status: PaymentStatus | string;
  failure?: { code?: string; message?: string } | null;
  receipt?: Receipt | null;
  created_at: string;
  refunds: Refund[];
}

export interface PaymentPage {
  data: Payment[];
  next_cursor: string | null;
}

/** A saved card (there is at most one). */
export interface PaymentMethod {
  id: string;
  brand: string;
  last4: string;
  exp_month?: number | null;
  exp_year?: number | null;
}

export const PAYMENT_PAGE_SIZE = 20;

// ---------------------------------------------------------------------------
// API calls
// ---------------------------------------------------------------------------

export function listPayments(cursor: string | null, signal?: AbortSignal): Promise<PaymentPage> {
  const params = new URLSearchParams({ limit: String(PAYMENT_PAGE_SIZE) });
  if (cursor) {
    params.set('cursor', cursor);
  }
  return getJson<PaymentPage>(`/api/v1/payments?${params.toString()}`, { signal, cache: 'no-store' });
}

export function listPaymentMethods(signal?: AbortSignal): Promise<{ data: PaymentMethod[] }> {
  return getJson<{ data: PaymentMethod[] }>('/api/v1/payment-methods', { signal, cache: 'no-store' });
}

/** `POST /api/v1/payment-methods/setup`: where to enter the card (Stripe Checkout in setup mode). */
export function setupPaymentMethod(me: Me | null, returnTo: string): Promise<{ checkout_url: string }> {
  return postJson<{ checkout_url: string }>(
    '/api/v1/payment-methods/setup',
    { return_to: returnTo },
    { headers: csrfHeaders(me) },
  );
}

export function deletePaymentMethod(me: Me | null, id: string): Promise<void> {
  return fetchJson<void>(`/api/v1/payment-methods/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    headers: csrfHeaders(me),
  });
}

// ---------------------------------------------------------------------------
// The saved card, loaded on demand
// ---------------------------------------------------------------------------

export interface SavedCardState {
  /** The saved card, null when there is none (or not loaded yet). */
  card: PaymentMethod | null;
  /** True until the first answer (only while `enabled`). */
  loading: boolean;
  error: unknown;
  reload: () => Promise<PaymentMethod | null>;
}

/**
 * The saved card, read from `GET /payment-methods` once `enabled` turns true (so pages that
 * do not need it make no request).
 */
export function useSavedCard(enabled: boolean): SavedCardState {
  const [card, setCard] = useState<PaymentMethod | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const seq = useRef(0);
  const mounted = useMounted();

  const reload = useCallback(async (): Promise<PaymentMethod | null> => {
    const current = ++seq.current;
    try {
      const page = await listPaymentMethods();
      const first = Array.isArray(page?.data) ? (page.data.find(isPaymentMethod) ?? null) : null;
      if (mounted.current && current === seq.current) {
        setCard(first);
        setError(null);
        setLoaded(true);
      }
      return first;
    } catch (caught) {
      if (mounted.current && current === seq.current) {
        setError(caught);
        setLoaded(true);
      }
      throw caught;
    }
  }, []);

  useEffect(() => {
    if (enabled && !loaded) {
      reload().catch(() => {
        // Kept in `error`; callers decide whether it matters.
      });
    }
  }, [enabled]);

  return { card, loading: enabled && !loaded, error, reload };
}

function isPaymentMethod(value: unknown): value is PaymentMethod {
  return Boolean(value && typeof value === 'object' && typeof (value as PaymentMethod).id === 'string');
}

// ---------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
};

function readable(value: string): string {
  const words = value.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "Visa" for "visa"; unknown brands are shown capitalized. */
export function brandLabel(brand: string | null | undefined): string {
  if (!brand) {
    return 'Card';
  }
  return BRANDS[brand.toLowerCase()] ?? readable(brand);
}

/** "Visa •••• 4242" */
export function cardLabel(card: PaymentMethod): string {
  return `${brandLabel(card.brand)} •••• ${card.last4}`;
}

/** The card's expiry as month and year in the viewer's locale ("12/2030", "Dec 2030"), or null. */
export function cardExpiry(card: PaymentMethod): string | null {
  const month = card.exp_month;
  const year = card.exp_year;
  if (typeof month !== 'number' || typeof year !== 'number' || month < 1 || month > 12) {
    return null;
  }
  return new Intl.DateTimeFormat(undefined, { month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, 1)),
  );
}

/** True once the end of the expiry month has passed. */
export function cardExpired(card: PaymentMethod, now: number = Date.now()): boolean {
  if (typeof card.exp_month !== 'number' || typeof card.exp_year !== 'number') {
    return false;
  }
  return Date.UTC(card.exp_year, card.exp_month, 1) <= now;
}

const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Pending',
  succeeded: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
  canceled: 'Canceled',
};

export function paymentStatusLabel(status: string | null | undefined): string {
  if (!status) {
    return '—';
  }
  return PAYMENT_STATUS_LABELS[status as PaymentStatus] ?? readable(status);
}

const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  cancellation: 'Cancellation',
  late_payment: 'Paid after the hold ended',
  downtime_credit: 'Downtime credit',
  operator: 'Refund by an operator',
  ready_credit: 'Ready guarantee credit',
};

export function refundReasonLabel(reason: string | null | undefined): string {
  if (!reason) {
    return '—';
  }
  return REFUND_REASON_LABELS[reason as RefundReason] ?? readable(reason);
}

const REFUND_STATUS_LABELS: Record<RefundStatus, string> = {
  pending: 'Pending',
  succeeded: 'Refunded',
  failed: 'Failed',
};

export function refundStatusLabel(status: string | null | undefined): string {
  if (!status) {
    return '—';
  }
  return REFUND_STATUS_LABELS[status as RefundStatus] ?? readable(status);
}

export function paymentMethodLabel(method: string | null | undefined): string {
  if (method === 'checkout') {
    return 'Card at checkout';
  }
  if (method === 'saved_card') {
    return 'Saved card';
  }
  return method ? readable(method) : '—';
}

/**
 * An amount as Money: the contract gives some amounts as Money and some (in `Payment`) as bare
 * minor units next to a `currency`; this accepts either.
 */
export function asMoney(value: Money | number | null | undefined, currency: string | null | undefined): Money | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return currency ? { amount: value, currency } : null;
  }
  if (value && typeof value === 'object' && typeof value.amount === 'number' && value.currency) {
    return value;
  }
  return null;
}

// ---------------------------------------------------------------------------
// 402 Payment Required (saved card declined, or needs authentication)
// ---------------------------------------------------------------------------

export interface PaymentDeclined {
  message: string;
  declineCode: string | null;
  /** Where to pay in a browser instead (the hold is kept), when the gateway offers it. */
  checkoutUrl: string | null;
}

export function paymentDeclined(error: unknown): PaymentDeclined | null {
  if (!(error instanceof ApiError) || error.status !== 402) {
    return null;
  }
  const problem = error.problem ?? {};
  return {
    message: error.message,
    declineCode: typeof problem.decline_code === 'string' ? problem.decline_code : null,
    checkoutUrl: safeCheckoutUrl(problem.checkout_url),
  };
}

/** An http(s) URL to send the browser to for paying; anything else (e.g. `javascript:`) is dropped. */
export function safeCheckoutUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') {
    return null;
  }
  try {
    const url = new URL(value, window.location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
