/** A host's planned maintenance windows: `/api/v1/operator/hosts/{id}/maintenance…`. */
import { ApiError, fetchJson, getJson, postJson } from './api';
import { csrfHeaders, type Me } from './session';

export interface MaintenanceWindow {
  id: string;
  host_id: string;
  starts_at: string;
  ends_at: string;
  /** true: the host takes no new reservation from when the window was saved until it ends. */
  drain: boolean;
  reason: string;
  created_by: string;
  created_at: string;
  cancelled_at: string | null;
}

/** A live reservation the window overlaps. */
export interface MaintenanceOverlap {
  id: string;
  status: string;
  window: { start: string; end: string };
  gpu_count: number;
}

export interface NewMaintenance {
  starts_at: string;
  ends_at: string;
  drain: boolean;
  reason: string;
}

const path = (hostId: string) => `/api/v1/operator/hosts/${encodeURIComponent(hostId)}/maintenance`;

export function listMaintenance(hostId: string, signal?: AbortSignal): Promise<{ data: MaintenanceWindow[] }> {
  return getJson(path(hostId), { signal, cache: 'no-store' });
}

/** The reservations the window would overlap; nothing is saved. */
export async function previewMaintenance(me: Me, hostId: string, window: NewMaintenance): Promise<MaintenanceOverlap[]> {
  const answer = await postJson<{ overlapping_reservations: MaintenanceOverlap[] }>(
    `${path(hostId)}?dry_run=true`, window, { headers: csrfHeaders(me) });
  return answer.overlapping_reservations;
}

/**
 * Saves the window. Without `acknowledged`, overlapping reservations make it fail with
 * {@link OverlapsFound} (nothing saved) so the operator can look at them and confirm.
 */
export async function scheduleMaintenance(
  me: Me,
  hostId: string,
  window: NewMaintenance,
  acknowledged: boolean,
): Promise<MaintenanceWindow> {
  try {
    const answer = await postJson<{ maintenance: MaintenanceWindow }>(
      path(hostId), { ...window, acknowledge_overlaps: acknowledged }, { headers: csrfHeaders(me) });
    return answer.maintenance;
  } catch (e) {
    const overlaps = e instanceof ApiError && e.status === 409 ? e.problem?.overlapping_reservations : undefined;
    throw Array.isArray(overlaps) ? new OverlapsFound(overlaps as MaintenanceOverlap[]) : e;
  }
}

export function cancelMaintenance(me: Me, hostId: string, id: string): Promise<MaintenanceWindow> {
  return fetchJson(`${path(hostId)}/${encodeURIComponent(id)}`, { method: 'DELETE', headers: csrfHeaders(me) });
}

/** The window overlaps these reservations and was not saved. */
export class OverlapsFound extends Error {
  readonly overlaps: MaintenanceOverlap[];

  constructor(overlaps: MaintenanceOverlap[]) {
    super(`${overlaps.length} reservation(s) overlap this window.`);
    this.name = 'OverlapsFound';
    this.overlaps = overlaps;
  }
}
