/** The operator's alert incidents: `GET /api/v1/operator/incidents`. */
import { getJson } from '../../../api';
import type { CursorPage } from '../../../paged-list';

export type IncidentStatus = 'open' | 'resolved';

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  next_attempt_at: string | null;
}

export interface Delivery {
  transition: 'opened' | 'resolved';
  channel: 'webhook' | 'email';
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  log: DeliveryAttempt[];
}

export interface Incident {
  id: string;
  rule: string;
  target: string;
  status: IncidentStatus;
  opened_at: string;
  last_seen_at: string;
  resolved_at: string | null;
  details: Record<string, unknown>;
  deliveries: Delivery[];
}

/** What each rule means, in the operator's words. */
export const RULE_LABELS: Record<string, string> = {
  host_offline: 'Host offline',
  gpu_unhealthy: 'GPU degraded or faulty',
  provisioning_failed: 'Provisioning failed',
  ready_deadline_missed: 'Ready deadline missed',
  refund_failed: 'Refund failed',
  ledger_problem: 'Ledger problem',
  reconciliation_failing: 'Reconciliation failing',
};

export function listIncidents(status: IncidentStatus | '', cursor: string | null, signal: AbortSignal) {
  const query = new URLSearchParams({ limit: '50' });
  if (status) {
    query.set('status', status);
  }
  if (cursor) {
    query.set('cursor', cursor);
  }
  return getJson<CursorPage<Incident>>(`/api/v1/operator/incidents?${query}`, { signal });
}

/** The host an incident is about, when it is about one (its target or its details say so). */
export function hostOf(incident: Incident): string | null {
  if (incident.target.startsWith('host_')) {
    return incident.target;
  }
  const host = incident.details['host_id'];
  return typeof host === 'string' && host.startsWith('host_') ? host : null;
}
