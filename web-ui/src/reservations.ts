/**
 * Reservations: `/api/v1/reservations` (create from a quote, list, read,
 * cancel a hold), status labels, the remembered SSH key and the 409 details.
 * Every call needs a signed-in session; POSTs send the CSRF header.
 */
import { ApiError, fetchJson, getJson, postJson } from './api';
import type { Money, PriceItem } from './offers';
import type { PaymentStatus, Refund } from './payments';
import { csrfHeaders, markSignedOut, type Me } from './session';

export const RESERVATION_STATUSES = [
  'pending_payment',
  'awaiting_approval',
  'confirmed',
  'provisioning',
  'running',
  'completed',
  'expired',
  'cancelled',
  'failed',
] as const;

export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

const STATUS_LABELS: Record<ReservationStatus, string> = {
  pending_payment: 'Pending payment',
  awaiting_approval: 'Awaiting your approval',
  confirmed: 'Confirmed',
  provisioning: 'Provisioning',
  running: 'Running',
  completed: 'Completed',
  expired: 'Expired',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export interface ReservationEvent {
  at: string;
  from: string | null;
  to: string;
  cause: string;
}

export type ExtensionStatus = 'pending_payment' | 'confirmed' | 'expired' | 'cancelled';

/** Hours added after the reservation's end; it moves `end` once paid. */
export interface ReservationExtension {
  id: string;
  hours: number;
  start: string;
  end: string;
  status: ExtensionStatus | string;
  hold_expires_at?: string | null;
  total?: Money;
  checkout_url?: string | null;
}

/** What cancelling now would do (computed when the reservation is read). */
export interface Cancellation {
  allowed: boolean;
  refund?: Money;
  fee?: Money;
  policy?: string;
}

export interface Reservation {
  id: string;
  status: ReservationStatus | string;
  offer_id: string;
  host_id: string;
  gpu_count: number;
  gpu_indexes: number[];
  start: string;
  end: string;
  hours: number;
  /** Until when an unpaid hold keeps the GPUs; null once paid (or over). */
  hold_expires_at: string | null;
  price: {
    quote_id: string;
    items: PriceItem[];
    total: Money;
    price_per_gpu_hour: Money;
    cancellation_policy: string;
    ready_guarantee?: string;
  };
  /** The latest payment of the reservation itself (extensions have their own). */
  payment: {
    method: 'checkout' | 'saved_card' | string;
    id?: string;
    status?: PaymentStatus;
    checkout_url?: string | null;
    amount_paid?: Money;
    /** Money in the contract; older gateways sent bare minor units. */
    amount_refunded?: Money | number;
    refunds?: Refund[];
  };
  cancellation?: Cancellation;
  extensions?: ReservationExtension[];
  ssh: {
    fingerprint: string;
    /** host:port once running. */
    endpoint: string | null;
    user?: string | null;
    /** e.g. "ssh -p 22 ubuntu@host", once running. */
    command?: string | null;
  };
  /** The image the instance runs and the ports asked for; null when none was chosen. */
  image?: { template_id: string | null; ref: string; ports: number[] } | null;
  /** The ports the running instance publishes besides SSH. */
  ports?: PublishedPort[];
  /** Ready-guarantee and downtime credits, oldest first. */
  credits?: ReservationCredit[];
  /** Set while the running instance is not served (its host offline). */
  interruption?: { since: string; reason: string } | null;
  created_at: string;
  /** Oldest first. */
  events: ReservationEvent[];
}

/** A credit earned without asking: what happened, when, how many started hours, how much. */
export interface ReservationCredit {
  id: string;
  kind: 'ready_late' | 'never_ready' | 'downtime' | 'host_failed' | string;
  reason: string;
  from: string;
  to: string;
  hours: number;
  amount: Money;
  refund_ids: string[];
  created_at: string;
}

export interface ReservationPage {
  data: Reservation[];
  next_cursor: string | null;
}

export type PaymentChoice = 'checkout' | 'saved_card';

export interface ReservationRequest {
  quote_id: string;
  ssh_public_key: string;
  payment: PaymentChoice;
  /** A template id (img_…) or a custom image reference from an allowed registry. */
  image?: string;
  /** Container ports to publish besides SSH. */
  ports?: number[];
}

/** A container port the running instance publishes, and where to reach it. */
export interface PublishedPort {
  container_port: number;
  host_port: number;
  address: string;
}

export interface ExtendRequest {
  hours: number;
  payment: PaymentChoice;
}

/** Statuses in which a reservation can be extended. */
export const EXTENDABLE_STATUSES: readonly string[] = ['confirmed', 'provisioning', 'running'];

/** Statuses after which nothing changes any more. */
export const FINAL_STATUSES: readonly string[] = ['completed', 'expired', 'cancelled', 'failed'];

export const RESERVATION_PAGE_SIZE = 20;

export function isReservationStatus(value: string | null | undefined): value is ReservationStatus {
  return (RESERVATION_STATUSES as readonly string[]).includes(value ?? '');
}

/** "Pending payment" for "pending_payment"; unknown statuses are shown readable. */
export function statusLabel(status: string | null | undefined): string {
  if (!status) {
    return '—';
  }
  if (isReservationStatus(status)) {
    return STATUS_LABELS[status];
  }
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A class-name-safe form of a status, for `status-badge--<status>`. */
export function statusClass(status: string | null | undefined): string {
  return (status ?? 'unknown').replace(/[^a-z0-9_-]/gi, '') || 'unknown';
}

/** `/reservations/{id}` */
export function reservationHref(id: string): string {
  return `/reservations/${encodeURIComponent(id)}`;
}

// ---------------------------------------------------------------------------
// API calls
// ---------------------------------------------------------------------------

/** `POST /api/v1/reservations`; the same Idempotency-Key and body replay the same answer. */
export function createReservation(me: Me | null, request: ReservationRequest, idempotencyKey: string): Promise<Reservation> {
  return postJson<Reservation>('/api/v1/reservations', request, {
    headers: { ...csrfHeaders(me), 'Idempotency-Key': idempotencyKey },
  });
}

export function listReservations(
  options: { status?: string; cursor?: string | null; limit?: number },
  signal?: AbortSignal,
): Promise<ReservationPage> {
  const params = new URLSearchParams();
  if (options.status) {
    params.set('status', options.status);
  }
  params.set('limit', String(options.limit ?? RESERVATION_PAGE_SIZE));
  if (options.cursor) {
    params.set('cursor', options.cursor);
  }
  return getJson<ReservationPage>(`/api/v1/reservations?${params.toString()}`, { signal, cache: 'no-store' });
}

export function getReservation(id: string, signal?: AbortSignal): Promise<Reservation> {
  return getJson<Reservation>(`/api/v1/reservations/${encodeURIComponent(id)}`, { signal, cache: 'no-store' });
}

/**
 * `POST /api/v1/reservations/{id}/cancel` (no body): releases an unpaid hold, or cancels a paid
 * reservation and refunds it by the cancellation policy.
 */
export function cancelReservation(me: Me | null, id: string): Promise<Reservation> {
  return fetchJson<Reservation>(`/api/v1/reservations/${encodeURIComponent(id)}/cancel`, {
    method: 'POST',
    headers: csrfHeaders(me),
  });
}

/**
 * `POST /api/v1/reservations/{id}/approve` or `/decline`: a reservation an API token made above its
 * budget's approval threshold goes on to payment, or is released with nothing charged.
 */
export function decideApproval(me: Me | null, id: string, decision: 'approve' | 'decline'): Promise<Reservation> {
  return fetchJson<Reservation>(`/api/v1/reservations/${encodeURIComponent(id)}/${decision}`, {
    method: 'POST',
    headers: csrfHeaders(me),
  });
}

/** `POST /api/v1/reservations/{id}/extend`: holds more hours on the same GPUs and charges them. */
export function extendReservation(
  me: Me | null,
  id: string,
  request: ExtendRequest,
  idempotencyKey: string,
): Promise<Reservation> {
  return postJson<Reservation>(`/api/v1/reservations/${encodeURIComponent(id)}/extend`, request, {
    headers: { ...csrfHeaders(me), 'Idempotency-Key': idempotencyKey },
  });
}

/** A fresh Idempotency-Key (a v4 UUID), also where `crypto.randomUUID` is unavailable (plain HTTP). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') {
    try {
      return crypto.randomUUID();
    } catch {
      // Not a secure context: fall through.
    }
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ---------------------------------------------------------------------------
// The last SSH key used, remembered in this browser
// ---------------------------------------------------------------------------

export const SSH_KEY_STORAGE_KEY = 'gpr.sshKey';

export function rememberedSshKey(): string {
  try {
    return window.localStorage.getItem(SSH_KEY_STORAGE_KEY) ?? '';
  } catch {
    // Storage may be disabled (privacy settings): nothing remembered.
    return '';
  }
}

export function rememberSshKey(key: string): void {
  try {
    window.localStorage.setItem(SSH_KEY_STORAGE_KEY, key);
  } catch {
    // Not remembering is fine.
  }
}

/** True for pasted private keys ("-----BEGIN OPENSSH PRIVATE KEY-----"), which must never be sent. */
export function looksLikePrivateKey(text: string): boolean {
  return /PRIVATE KEY/.test(text);
}

// ---------------------------------------------------------------------------
// 409: not enough GPUs free any more
// ---------------------------------------------------------------------------

export interface ReservationConflict {
  gpusFree: number | null;
  nextFreeWindow: { start: string; end: string } | null;
}

/** The extra fields of a 409 from `POST /reservations`, or null for other errors. */
export function reservationConflict(error: unknown): ReservationConflict | null {
  if (!(error instanceof ApiError) || error.status !== 409) {
    return null;
  }
  const problem = error.problem ?? {};
  const free = problem.gpus_free;
  const next = problem.next_free_window as { start?: unknown; end?: unknown } | null | undefined;
  return {
    gpusFree: typeof free === 'number' && Number.isFinite(free) ? free : null,
    nextFreeWindow:
      next && typeof next === 'object' && typeof next.start === 'string' && typeof next.end === 'string'
        ? { start: next.start, end: next.end }
        : null,
  };
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/** A 401 ends the signed-in view instead of failing call by call. */
export function handleSessionEnded(error: unknown): boolean {
  if (error instanceof ApiError && error.status === 401) {
    markSignedOut();
    return true;
  }
  return false;
}
