/**
 * Shared helpers for talking to the gateway's JSON API (same origin).
 *
 * Errors follow RFC 9457 problem details (`application/problem+json`); a
 * non-2xx response is turned into an {@link ApiError} whose message is the
 * problem's `detail` (falling back to `title`, then the HTTP status).
 */

/** RFC 9457 problem details, as returned by the gateway on errors. */
export interface ProblemDetail {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly problem: ProblemDetail | undefined;

  constructor(message: string, status: number, problem?: ProblemDetail) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
  }
}

export interface ApiRequestInit extends Omit<RequestInit, 'body'> {
  /** Sent as JSON unless it is already a string, FormData, Blob or URLSearchParams. */
  body?: unknown;
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer
  );
}

function isJsonContentType(contentType: string | null): boolean {
  return contentType !== null && /[/+]json\b/i.test(contentType);
}

/**
 * Fetches `path` and parses a JSON response.
 * Resolves to `undefined` for 204/205 or an empty body.
 * Rejects with {@link ApiError} on non-2xx, and with a plain Error when the
 * network fails or a 2xx body is not valid JSON.
 */
export async function fetchJson<T>(path: string, init: ApiRequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (!headers.has('Accept')) {
    headers.set('Accept', 'application/json');
  }

  let body: BodyInit | undefined;
  if (init.body !== undefined && init.body !== null) {
    if (isRawBody(init.body)) {
      body = init.body;
    } else {
      body = JSON.stringify(init.body);
      if (!headers.has('Content-Type')) {
        headers.set('Content-Type', 'application/json');
      }
    }
  }

  const response = await fetch(path, {
    credentials: 'same-origin',
    ...init,
    headers,
    body,
  });

  const text = await response.text();
  const contentType = response.headers.get('Content-Type');

  if (!response.ok) {
    let problem: ProblemDetail | undefined;
    if (text && isJsonContentType(contentType)) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object') {
          problem = parsed as ProblemDetail;
        }
      } catch {
        // Not JSON after all; fall back to the status line below.
      }
    }
    const message =
      (typeof problem?.detail === 'string' && problem.detail) ||
      (typeof problem?.title === 'string' && problem.title) ||
      `Request failed: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    throw new ApiError(message, response.status, problem);
  }

  if (response.status === 204 || response.status === 205 || text === '') {
    return undefined as T;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`Expected JSON from ${path}, got ${contentType ?? 'no content type'}`);
  }
}

/** `GET path` as JSON. */
export function getJson<T>(path: string, init: Omit<ApiRequestInit, 'method' | 'body'> = {}): Promise<T> {
  return fetchJson<T>(path, { ...init, method: 'GET' });
}

/** `POST path` with a JSON body. */
export function postJson<T>(path: string, body?: unknown, init: Omit<ApiRequestInit, 'method' | 'body'> = {}): Promise<T> {
  return fetchJson<T>(path, { ...init, method: 'POST', body });
}

/** Response of `GET /api/v1/version`. */
export interface VersionInfo {
  version: string;
  schema_version: string;
  mode: 'sandbox' | 'live' | string;
}

export function getVersion(signal?: AbortSignal): Promise<VersionInfo> {
  return getJson<VersionInfo>('/api/v1/version', { signal });
}
