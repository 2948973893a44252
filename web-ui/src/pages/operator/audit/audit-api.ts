/** The audit log: `GET /api/v1/operator/audit` (newest first, filtered, by cursor). */
import { getJson } from '../../../api';
import type { CursorPage } from '../../../paged-list';

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditFilter {
  actor: string;
  action: string;
  target: string;
  /** datetime-local values in the viewer's zone; empty = open. */
  from: string;
  to: string;
}

export function listAudit(filter: AuditFilter, cursor: string | null, signal: AbortSignal): Promise<CursorPage<AuditEntry>> {
  const query = new URLSearchParams({ limit: '50' });
  for (const key of ['actor', 'action', 'target'] as const) {
    if (filter[key].trim()) {
      query.set(key, filter[key].trim());
    }
  }
  for (const key of ['from', 'to'] as const) {
    if (filter[key]) {
      query.set(key, new Date(filter[key]).toISOString());
    }
  }
  if (cursor) {
    query.set('cursor', cursor);
  }
  return getJson(`/api/v1/operator/audit?${query}`, { signal, cache: 'no-store' });
}

/** One line per field that differs (or every field of a creation/removal): name, before, after. */
export function changes(before: Record<string, unknown> | null, after: Record<string, unknown> | null) {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const text = (value: unknown) =>
    value === undefined || value === null ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return keys
    .map((key) => ({ key, before: text(before?.[key]), after: text(after?.[key]) }))
    .filter((line) => line.before !== line.after || !before || !after);
}
