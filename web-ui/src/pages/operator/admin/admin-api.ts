/** The operator's administration: `/api/v1/operator/accounts…`, `/operator/reservations…`, `/operator/ledger/check`. */
import { fetchJson, getJson, postJson } from '../../../api';
import type { Money } from '../../../offers';
import type { Refund } from '../../../payments';
import { csrfHeaders, type Me } from '../../../session';

export interface Suspension {
  since: string;
  reason: string;
  by: string | null;
}

export interface AdminAccount {
  id: string;
  display_name: string;
  primary_email: string | null;
  roles: string[];
  operator: { granted: boolean; by_config: boolean };
  suspension: Suspension | null;
  identities: { provider: string; login: string | null; email: string | null; last_sign_in_at: string | null }[];
  created_at: string;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface OperatorReservation {
  id: string;
  account: { id: string; display_name: string | null; primary_email: string | null; suspended: boolean };
  host_id: string;
  offer_id: string;
  gpu_count: number;
  start: string;
  end: string;
  status: string;
  payment_method: string;
  total: Money;
  paid: Money;
  refunded: Money;
  refundable: Money;
  created_at: string;
}

export interface ManualRefund {
  id: string;
  reservation_id: string;
  kind: 'refund' | 'credit';
  amount: Money;
  reason: string;
  refunds: Refund[];
}

export interface ReconcilerRun {
  started_at: string;
  finished_at: string;
  refunds_retried: number;
  events_missed: number;
  events_applied: number;
  events_failed: number;
  error: string | null;
  ok: boolean;
}

export interface LedgerStatus {
  ledger: {
    ok: boolean;
    transactions: number;
    checked_at: string;
    balances: { account: string; currency: string; amount: number }[];
    problems: { problem: string; ref: string; detail: string }[];
  };
  reconciliation: {
    ok: boolean;
    interval_seconds: number;
    last_run: ReconcilerRun | null;
    last_failure: ReconcilerRun | null;
    runs_last_24h: number;
    events_applied_last_24h: number;
  };
}

function withQuery(path: string, params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  Object.entries(params).forEach(([key, value]) => {
    if (value) {
      query.set(key, value);
    }
  });
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

export function searchAccounts(q: string, cursor: string | null, signal?: AbortSignal): Promise<Page<AdminAccount>> {
  return getJson(withQuery('/api/v1/operator/accounts', { q: q.trim(), cursor, limit: '20' }), {
    signal,
    cache: 'no-store',
  });
}

const accountPath = (id: string) => `/api/v1/operator/accounts/${encodeURIComponent(id)}`;

export function setOperator(me: Me, id: string, operator: boolean): Promise<AdminAccount> {
  return fetchJson(`${accountPath(id)}/roles/operator`, {
    method: operator ? 'PUT' : 'DELETE',
    headers: csrfHeaders(me),
  });
}

export function suspendAccount(me: Me, id: string, reason: string): Promise<AdminAccount> {
  return postJson(`${accountPath(id)}/suspension`, { reason }, { headers: csrfHeaders(me) });
}

export function unsuspendAccount(me: Me, id: string): Promise<AdminAccount> {
  return fetchJson(`${accountPath(id)}/suspension`, { method: 'DELETE', headers: csrfHeaders(me) });
}

export interface ReservationFilter {
  status: string;
  account_id: string;
  host_id: string;
  from: string;
  to: string;
}

export function listAllReservations(
  filter: ReservationFilter,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<OperatorReservation>> {
  return getJson(withQuery('/api/v1/operator/reservations', { ...filter, cursor, limit: '20' }), {
    signal,
    cache: 'no-store',
  });
}

export function refundManually(
  me: Me,
  reservationId: string,
  body: { amount: number; currency: string; reason: string; kind: 'refund' | 'credit' },
  idempotencyKey: string,
): Promise<ManualRefund> {
  return postJson(`/api/v1/operator/reservations/${encodeURIComponent(reservationId)}/refunds`, body, {
    headers: { ...csrfHeaders(me), 'Idempotency-Key': idempotencyKey },
  });
}

export function ledgerStatus(signal?: AbortSignal): Promise<LedgerStatus> {
  return getJson('/api/v1/operator/ledger/check', { signal, cache: 'no-store' });
}
