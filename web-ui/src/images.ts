/** Image templates and the allowed registries: `GET /api/v1/images` (renters) and `/api/v1/operator/images…`. */
import { fetchJson, getJson } from './api';
import { csrfHeaders, type Me } from './session';

export interface ImageTemplate {
  id: string;
  name: string;
  ref: string;
  description: string;
  default_ports: number[];
  min_driver_version: string | null;
  min_cuda_version: string | null;
  is_default: boolean;
  created_at?: string;
  updated_at?: string;
  retired_at?: string | null;
}

export interface ImageList {
  data: ImageTemplate[];
  allowed_registries: string[];
}

export interface ImageSettings {
  allowed_registries: string[];
  image_cache_limit_gb: number;
}

export interface ImageTemplateRequest {
  name: string;
  ref: string;
  description: string;
  default_ports: number[];
  min_driver_version: string | null;
  min_cuda_version: string | null;
  is_default: boolean;
}

/** What an instance runs, as a quote or reservation shows it. */
export interface InstanceImage {
  template_id: string | null;
  ref: string;
  ports: number[];
}

export function listImages(signal?: AbortSignal): Promise<ImageList> {
  return getJson('/api/v1/images', { signal, cache: 'no-store' });
}

export function listTemplates(signal?: AbortSignal): Promise<{ data: ImageTemplate[] }> {
  return getJson('/api/v1/operator/images?include_retired=true', { signal, cache: 'no-store' });
}

export function createTemplate(me: Me, template: ImageTemplateRequest): Promise<ImageTemplate> {
  return fetchJson('/api/v1/operator/images', { method: 'POST', body: template, headers: csrfHeaders(me) });
}

export function retireTemplate(me: Me, id: string): Promise<ImageTemplate> {
  return fetchJson(`/api/v1/operator/images/${encodeURIComponent(id)}`, { method: 'DELETE', headers: csrfHeaders(me) });
}

export function getImageSettings(signal?: AbortSignal): Promise<ImageSettings> {
  return getJson('/api/v1/operator/image-settings', { signal, cache: 'no-store' });
}

export function putImageSettings(me: Me, settings: Partial<ImageSettings>): Promise<ImageSettings> {
  return fetchJson('/api/v1/operator/image-settings', { method: 'PUT', body: settings, headers: csrfHeaders(me) });
}

/** "8888, 6006" to [8888, 6006]; null when a part is not a whole number. */
export function parsePorts(text: string): number[] | null {
  const parts = text.split(/[\s,]+/).map((p) => p.trim()).filter(Boolean);
  return parts.every((p) => /^\d{1,5}$/.test(p)) ? parts.map(Number) : null;
}

/** The short form of a reference for people: the digest cut to 12 hex digits. */
export function shortRef(ref: string): string {
  return ref.replace(/@sha256:([0-9a-f]{12})[0-9a-f]{52}$/, '@sha256:$1…');
}
