/** Sign-in providers, sign-in links and the `return_to` rules. */

export interface Provider {
  id: 'github' | 'google';
  label: string;
}

export const PROVIDERS: readonly Provider[] = [
  { id: 'github', label: 'GitHub' },
  { id: 'google', label: 'Google' },
];

/** "GitHub" for "github"; unknown providers are shown capitalized. */
export function providerLabel(id: string | null | undefined): string {
  if (!id) {
    return '';
  }
  const known = PROVIDERS.find((provider) => provider.id === id.toLowerCase());
  return known ? known.label : id.charAt(0).toUpperCase() + id.slice(1);
}

/** Encodes a query value, keeping `/` readable (it is legal in a query). */
export function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/');
}

/**
 * A safe place to return to after sign-in: a same-origin path starting with
 * a single `/`. Anything else (absolute URLs, `//host`, `/\host`, control
 * characters, the sign-in pages themselves) becomes `/`.
 */
export function safeReturnTo(raw: string | null | undefined): string {
  if (!raw || raw.length > 500 || !raw.startsWith('/') || raw.startsWith('//')) {
    return '/';
  }
  // Backslashes act like slashes in browsers' URL parsing; no control characters.
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) {
    return '/';
  }
  let url: URL;
  try {
    url = new URL(raw, window.location.origin);
  } catch {
    return '/';
  }
  if (url.origin !== window.location.origin) {
    return '/';
  }
  if (url.pathname === '/signin' || url.pathname === '/auth' || url.pathname.startsWith('/auth/')) {
    return '/';
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `/signin?return_to=…` for the given page. */
export function signInPageHref(returnTo: string): string {
  return `/signin?return_to=${encodeQueryValue(safeReturnTo(returnTo))}`;
}

/** `/auth/<provider>?return_to=…`: starts sign-in (or linking, when signed in). */
export function providerAuthHref(provider: Provider['id'], returnTo: string): string {
  return `/auth/${provider}?return_to=${encodeQueryValue(safeReturnTo(returnTo))}`;
}
