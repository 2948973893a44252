/** The operator's hosts and sites: `/api/v1/operator/sites`, `/api/v1/operator/hosts…`. */
import { getJson, postJson } from './api';
import type { Uptime } from './offers';
import { csrfHeaders, type Me } from './session';
import type { TimeToReady } from './time-to-ready';

export interface Site {
  id: string;
  name: string;
  region: string;
  country: string;
}

export type GpuHealthStatus = 'healthy' | 'degraded' | 'faulty';

/** A GPU's latest sample (from the last heartbeat). */
export interface GpuSample {
  at: string;
  temperature_c: number | null;
  power_draw_w: number | null;
  utilization_pct: number | null;
  memory_used_mib: number | null;
  ecc_uncorrected: number | null;
  remapped_rows_failure: boolean | null;
}

/** The host's latest sample (from the last heartbeat). */
export interface HostSample {
  at: string;
  power_w: number | null;
  power_source: 'measured' | 'estimated' | null;
  disk_free_gb: number | null;
  disk_health: 'passed' | 'failed' | null;
  load_1m: number | null;
  rtt_ms: number | null;
}

export interface HostGpu {
  index: number;
  uuid: string | null;
  nvidia_smi_name: string | null;
  model: string | null;
  vram_gb: number;
  health: { status: GpuHealthStatus; reason: string | null; since: string | null };
  telemetry: GpuSample | null;
}

export interface Host {
  id: string;
  name: string;
  site_id: string;
  status: 'enrolling' | 'pending' | 'active' | 'degraded' | 'offline' | 'deactivated' | 'maintenance';
  /** Why the host is (or was last) degraded. */
  health_reason: string | null;
  telemetry: HostSample | null;
  public_address: string | null;
  created_at: string;
  enrolled_at: string | null;
  last_heartbeat_at: string | null;
  agent_version: string | null;
  credential_prefix: string | null;
  facts: Record<string, unknown> | null;
  gpus: HostGpu[];
  unknown_gpu_names: string[];
  offers: string[];
  /** From the host's status history; null for a host without any. */
  uptime?: Uptime | null;
  /** Over the last 30 days; null while no instance has run on the host. */
  time_to_ready?: TimeToReady | null;
  /** Open alert incidents about the host, its GPUs or its reservations. */
  open_incidents?: number;
  costs_entered?: boolean;
}

/**
 * What the host's container runtime cannot promise (`facts.container_isolation.warnings`, from the
 * agent): Docker without user namespaces, no disk limit. Empty for other hosts.
 */
export function isolationWarnings(host: Host): string[] {
  const isolation = host.facts?.['container_isolation'] as { warnings?: unknown } | null | undefined;
  const warnings = isolation?.warnings;
  return Array.isArray(warnings) ? warnings.filter((w): w is string => typeof w === 'string') : [];
}

/** `POST /operator/hosts` answer: the host, its one-time enrolment token and the agent command. */
export interface EnrolledHost extends Host {
  enrollment_token: string;
  enrollment_token_expires_at: string;
  agent_command: string;
}

export function listSites(signal?: AbortSignal): Promise<{ data: Site[] }> {
  return getJson('/api/v1/operator/sites', { signal, cache: 'no-store' });
}

export function createSite(me: Me, site: Omit<Site, 'id'>): Promise<Site> {
  return postJson('/api/v1/operator/sites', site, { headers: csrfHeaders(me) });
}

export function getHost(id: string, signal?: AbortSignal): Promise<Host> {
  return getJson(`/api/v1/operator/hosts/${encodeURIComponent(id)}`, { signal, cache: 'no-store' });
}

export function listHosts(signal?: AbortSignal): Promise<{ data: Host[]; next_cursor: string | null }> {
  return getJson('/api/v1/operator/hosts?limit=100', { signal, cache: 'no-store' });
}

export function createHost(
  me: Me,
  host: { name: string; site_id: string; public_address?: string },
): Promise<EnrolledHost> {
  return postJson('/api/v1/operator/hosts', host, { headers: csrfHeaders(me) });
}

function hostAction<T>(me: Me, id: string, action: string, body?: unknown): Promise<T> {
  return postJson(`/api/v1/operator/hosts/${encodeURIComponent(id)}/${action}`, body, {
    headers: csrfHeaders(me),
  });
}

/** Activates the host, at its own price per GPU-hour (minor units) or else the site's default for its model. */
export const activateHost = (me: Me, id: string, price?: { amount: number; currency: string }) =>
  hostAction<Host>(me, id, 'activate', price ? { price_per_gpu_hour: price } : undefined);
export const deactivateHost = (me: Me, id: string) => hostAction<Host>(me, id, 'deactivate');
export const revokeCredential = (me: Me, id: string) => hostAction<void>(me, id, 'credential/revoke');
export const rotateCredential = (me: Me, id: string) =>
  hostAction<{ credential: string }>(me, id, 'credential/rotate');
/** A new enrolment token (the earlier ones stop working) while the host's agent has not enrolled. */
export const reissueEnrolmentToken = (me: Me, id: string) =>
  hostAction<Pick<EnrolledHost, 'enrollment_token' | 'enrollment_token_expires_at' | 'agent_command'>>(
    me,
    id,
    'enrollment-token',
  );

/** What the operator may do with a host in this status. */
export function canActivate(host: Host): boolean {
  return (host.status === 'pending' || host.status === 'deactivated') && host.unknown_gpu_names.length === 0;
}

export function canDeactivate(host: Host): boolean {
  return host.status === 'active' || host.status === 'degraded' || host.status === 'offline';
}
