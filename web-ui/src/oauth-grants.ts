/** MCP clients the person allowed through OAuth: `/api/v1/oauth/grants`. */
import { fetchJson, getJson } from './api';
import { csrfHeaders, type Me } from './session';

export interface OAuthGrant {
  /** The grant's token id (`tok_…`): its budget is that token's. */
  id: string;
  client_id: string;
  client_name: string;
  /** Where its authorization codes went back to. */
  redirect_host: string;
  scopes: string[];
  resource: string;
  created_at: string;
  last_used_at: string | null;
}

export function listOAuthGrants(signal?: AbortSignal): Promise<{ data: OAuthGrant[] }> {
  return getJson<{ data: OAuthGrant[] }>('/api/v1/oauth/grants', { signal, cache: 'no-store' });
}

export function revokeOAuthGrant(me: Me, id: string): Promise<void> {
  return fetchJson<void>(`/api/v1/oauth/grants/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    headers: csrfHeaders(me),
  });
}
