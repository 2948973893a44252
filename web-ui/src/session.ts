/**
 * Who is signed in: loads `GET /api/v1/me` once at startup and shares the
 * result with every component through {@link useSession}.
 *
 * To keep the console free of 401 noise for signed-out visitors, `/api/v1/me`
 * is only requested while the readable hint cookie `gpr_signed_in` is present.
 * The gateway sets that cookie at sign-in and clears it at sign-out; it carries
 * no authority (the HttpOnly session cookie does), it only says "worth asking".
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, fetchJson, getJson } from './api';

export const SIGNED_IN_HINT_COOKIE = 'gpr_signed_in';

/** A sign-in identity linked to the account. */
export interface Identity {
  provider: 'github' | 'google' | string;
  login: string | null;
  email: string | null;
  linked_at: string;
}

/** Response of `GET /api/v1/me`. */
export interface Me {
  id: string;
  display_name: string;
  primary_email: string | null;
  created_at: string;
  identities: Identity[];
  roles: string[];
  scopes: string[];
  auth: string;
  csrf_token: string;
}

export interface SessionState {
  /** The signed-in account, or null when signed out (or still loading). */
  me: Me | null;
  /** True while `/api/v1/me` is being fetched. */
  loading: boolean;
  /** Why `/api/v1/me` failed (other than "not signed in"), if it did. */
  error: string | null;
}

/** True when the gateway's readable "signed in" hint cookie is present. */
export function hasSignedInHint(): boolean {
  if (typeof document === 'undefined') {
    return false;
  }
  return document.cookie.split(';').some((part) => {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? '' : part.slice(eq + 1).trim();
    return name === SIGNED_IN_HINT_COOKIE && value !== '' && value !== '0';
  });
}

/** Drops a stale hint (e.g. the session expired) so the next load skips `/me`. */
function clearSignedInHint(): void {
  if (hasSignedInHint()) {
    document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  }
}

let state: SessionState = { me: null, loading: hasSignedInHint(), error: null };
const listeners = new Set<(next: SessionState) => void>();
let started = false;
let generation = 0;

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) {
    listener(state);
  }
}

export function getSession(): SessionState {
  return state;
}

/**
 * (Re)loads the signed-in account. Without the hint cookie the visitor is
 * signed out and no request is made. A 401 means signed out, quietly.
 */
export async function refresh(): Promise<void> {
  started = true;
  const current = ++generation;
  if (!hasSignedInHint()) {
    setState({ me: null, loading: false, error: null });
    return;
  }
  setState({ ...state, loading: true, error: null });
  try {
    const me = await getJson<Me>('/api/v1/me', { cache: 'no-store' });
    if (current !== generation) {
      return;
    }
    if (!me || typeof me !== 'object' || typeof me.id !== 'string') {
      throw new Error('Unexpected response from /api/v1/me');
    }
    setState({
      me: { ...me, identities: me.identities ?? [], roles: me.roles ?? [], scopes: me.scopes ?? [] },
      loading: false,
      error: null,
    });
  } catch (error) {
    if (current !== generation) {
      return;
    }
    if (error instanceof ApiError && error.status === 401) {
      clearSignedInHint();
      setState({ me: null, loading: false, error: null });
      return;
    }
    setState({
      me: null,
      loading: false,
      error: error instanceof Error ? error.message : 'Could not load your account.',
    });
  }
}

/** Loads the session once; later calls do nothing. */
export function startSession(): void {
  if (!started) {
    void refresh();
  }
}

/**
 * Marks the visitor signed out locally (e.g. an API call answered 401 because
 * the session expired) without another request.
 */
export function markSignedOut(): void {
  generation++;
  clearSignedInHint();
  setState({ me: null, loading: false, error: null });
}

/** Headers for a state-changing request made with the session cookie. */
export function csrfHeaders(me: Me | null = state.me): Record<string, string> {
  return me ? { 'X-CSRF-Token': me.csrf_token } : {};
}

/**
 * Ends the session (`POST /auth/logout` with the CSRF header), then loads `/`.
 * Rejects (and stays signed in) when the gateway refuses for another reason
 * than "already signed out".
 */
export async function signOut(): Promise<void> {
  try {
    await fetchJson<void>('/auth/logout', { method: 'POST', headers: csrfHeaders() });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) {
      throw error;
    }
  }
  markSignedOut();
  // A full page load drops everything the app held for the account.
  window.location.assign('/');
}

export interface SessionApi extends SessionState {
  refresh: () => Promise<void>;
  signOut: () => Promise<void>;
}

/** The current session; re-renders when it changes. Starts loading on first use. */
export function useSession(): SessionApi {
  const [current, setCurrent] = useState<SessionState>(state);
  useEffect(() => {
    listeners.add(setCurrent);
    // Catch up with any change between the first render and subscribing.
    setCurrent(state);
    startSession();
    return () => {
      listeners.delete(setCurrent);
    };
  }, []);
  return { ...current, refresh, signOut };
}
