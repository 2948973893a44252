/** Personal API tokens: `/api/v1/tokens`. */
import { fetchJson, getJson, postJson } from './api';
import { csrfHeaders, type Me } from './session';

export interface ApiToken {
  id: string;
  name: string;
  /** The first characters of the secret, e.g. "gpr_AbC1" (never the secret). */
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** `POST /api/v1/tokens` answer: the token plus its secret, shown once. */
export interface CreatedApiToken extends ApiToken {
  token: string;
}

export interface TokenPage {
  data: ApiToken[];
  next_cursor: string | null;
}

export interface CreateTokenRequest {
  name: string;
  scopes: string[];
  /** RFC 3339 instant; omitted for a token that never expires. */
  expires_at?: string;
}

export interface ScopeInfo {
  scope: string;
  /** Element id of its checkbox. */
  inputId: string;
  description: string;
  operatorOnly: boolean;
}

export const TOKEN_SCOPES: readonly ScopeInfo[] = [
  {
    scope: 'catalog:read',
    inputId: 'scope-catalog-read',
    description: 'Browse GPU offers and prices.',
    operatorOnly: false,
  },
  {
    scope: 'reservations:read',
    inputId: 'scope-reservations-read',
    description: 'See your reservations, their live status and your SSH keys.',
    operatorOnly: false,
  },
  {
    scope: 'reservations:write',
    inputId: 'scope-reservations-write',
    description: 'Create, change and cancel your reservations (includes reading them).',
    operatorOnly: false,
  },
  {
    scope: 'payments:read',
    inputId: 'scope-payments-read',
    description: 'See your payments, refunds and saved payment methods.',
    operatorOnly: false,
  },
  {
    scope: 'payments:write',
    inputId: 'scope-payments-write',
    description: 'Pay for reservations with your saved payment methods (includes reading payments).',
    operatorOnly: false,
  },
  {
    scope: 'operator',
    inputId: 'scope-operator',
    description: 'Operator tools: inventory, pricing and capacity.',
    operatorOnly: true,
  },
];

export const TOKEN_LIST_LIMIT = 100;

export function listTokens(signal?: AbortSignal): Promise<TokenPage> {
  return getJson<TokenPage>(`/api/v1/tokens?limit=${TOKEN_LIST_LIMIT}`, { signal, cache: 'no-store' });
}

export function createToken(me: Me, request: CreateTokenRequest): Promise<CreatedApiToken> {
  return postJson<CreatedApiToken>('/api/v1/tokens', request, { headers: csrfHeaders(me) });
}

export function revokeToken(me: Me, id: string): Promise<void> {
  return fetchJson<void>(`/api/v1/tokens/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    headers: csrfHeaders(me),
  });
}

/** Today's date in UTC as `YYYY-MM-DD` (the earliest expiry date allowed). */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The end (last second) of a `YYYY-MM-DD` day in UTC, as RFC 3339:
 * "2027-01-01" → "2027-01-01T23:59:59Z". Null when the date is not valid.
 */
export function endOfDayUtc(date: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    return null;
  }
  const instant = `${date}T23:59:59Z`;
  const parsed = new Date(instant);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
    return null;
  }
  return instant;
}
