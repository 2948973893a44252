/**
 * A tiny history-API router: `usePath()` gives the current pathname and
 * `<Link>` navigates client-side. Anything not rendered through `<Link>`
 * (e.g. /docs, /auth/*) is a normal full-page navigation handled by the server.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const NAVIGATE_EVENT = 'app:navigate';

export function normalizePath(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) {
    return pathname.replace(/\/+$/, '') || '/';
  }
  return pathname || '/';
}

export function currentPath(): string {
  return normalizePath(window.location.pathname);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = new URL(to, window.location.href);
  if (url.origin !== window.location.origin) {
    window.location.assign(url.href);
    return;
  }
  if (url.href !== window.location.href) {
    if (options.replace) {
      window.history.replaceState(null, '', url.href);
    } else {
      window.history.pushState(null, '', url.href);
    }
  }
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** The current (normalized) pathname; re-renders on navigation and back/forward. */
export function usePath(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const update = () => setPath(currentPath());
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATE_EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATE_EVENT, update);
    };
  }, []);
  return path;
}

/**
 * The current query string (e.g. "?hours=24", or ""); re-renders when it
 * changes through {@link navigate} or back/forward.
 */
export function useSearch(): string {
  const [search, setSearch] = useState(() => window.location.search);
  useEffect(() => {
    const update = () => setSearch(window.location.search);
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATE_EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATE_EVENT, update);
    };
  }, []);
  return search;
}

type AnchorProps = JSX.AnchorHTMLAttributes<HTMLAnchorElement>;

export interface LinkProps extends Omit<AnchorProps, 'href'> {
  href: string;
  children?: ComponentChildren;
}

/** An `<a>` that navigates client-side on a plain primary click. */
export function Link({ href, onClick, ...rest }: LinkProps) {
  const handleClick = (event: JSX.TargetedMouseEvent<HTMLAnchorElement>) => {
    if (typeof onClick === 'function') {
      onClick(event);
    }
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      (rest.target && rest.target !== '_self')
    ) {
      return;
    }
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handleClick} {...rest} />;
}
