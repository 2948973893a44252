import { useEffect, useRef, useState } from 'preact/hooks';
import { getVersion, type VersionInfo } from './api';
import { signInPageHref, safeReturnTo } from './auth';
import { AccountPage } from './pages/account/AccountPage';
import { CatalogPage } from './pages/catalog/CatalogPage';
import { Home } from './pages/Home';
import { NotFound } from './pages/NotFound';
import { OfferPage } from './pages/offer/OfferPage';
import { OperatorPage } from './pages/operator/OperatorPage';
import { operatorSection } from './pages/operator/sections';
import { PaymentsPage } from './pages/Payments';
import { Placeholder } from './pages/Placeholder';
import { ReservationPage } from './pages/reservation/ReservationPage';
import { ReservationsPage } from './pages/Reservations';
import { SignInPage } from './pages/SignIn';
import { Link, usePath } from './router';
import { NAV_ITEMS, navItems, PAYMENTS_NAV_ITEM, SITE_NAME } from './routes';
import { useSession } from './session';
import './app.css';

/** The offer id of `/catalog/{id}`, or null for any other path. */
function offerIdFromPath(path: string): string | null {
  const match = /^\/catalog\/([^/]+)$/.exec(path);
  if (!match?.[1]) {
    return null;
  }
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** The reservation id of `/reservations/{id}`, or null for any other path. */
function reservationIdFromPath(path: string): string | null {
  const match = /^\/reservations\/([^/]+)$/.exec(path);
  if (!match?.[1]) {
    return null;
  }
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

function isCurrent(itemPath: string, path: string): boolean {
  return path === itemPath || path.startsWith(`${itemPath}/`);
}

function Page({ path, version }: { path: string; version: VersionInfo | null }) {
  if (path === '/') {
    return <Home />;
  }
  if (path === '/signin') {
    return <SignInPage version={version} />;
  }
  if (path === '/account') {
    return <AccountPage />;
  }
  if (path === '/catalog') {
    return <CatalogPage />;
  }
  const offerId = offerIdFromPath(path);
  if (offerId) {
    return <OfferPage key={offerId} id={offerId} />;
  }
  if (path === '/reservations') {
    return <ReservationsPage />;
  }
  if (path === PAYMENTS_NAV_ITEM.path) {
    return <PaymentsPage />;
  }
  const operator = operatorSection(path);
  if (operator) {
    return <OperatorPage path={path} />;
  }
  const reservationId = reservationIdFromPath(path);
  if (reservationId) {
    return <ReservationPage key={reservationId} id={reservationId} />;
  }
  const item = NAV_ITEMS.find((candidate) => candidate.path === path);
  if (item) {
    return <Placeholder title={item.label} summary={item.summary} />;
  }
  return <NotFound />;
}

function pageTitle(path: string): string {
  if (path === '/') {
    return SITE_NAME;
  }
  if (path === '/signin') {
    return `Sign in — ${SITE_NAME}`;
  }
  if (offerIdFromPath(path)) {
    // The offer page names itself once loaded.
    return `Offer — ${SITE_NAME}`;
  }
  const reservationId = reservationIdFromPath(path);
  if (reservationId) {
    // The reservation page names itself once loaded.
    return `Reservation ${reservationId} — ${SITE_NAME}`;
  }
  const operator = path === '/operator' ? null : operatorSection(path);
  if (operator) {
    return `${operator.section.label} — ${SITE_NAME}`;
  }
  const item = [...NAV_ITEMS, PAYMENTS_NAV_ITEM].find((candidate) => candidate.path === path);
  return `${item ? item.label : 'Page not found'} — ${SITE_NAME}`;
}

/** Loads /api/v1/version once; stays null if the API is unreachable. */
function useVersion(): VersionInfo | null {
  const [version, setVersion] = useState<VersionInfo | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    getVersion(controller.signal)
      .then((info) => {
        if (info && typeof info === 'object') {
          setVersion(info);
        }
      })
      .catch(() => {
        // The version is optional decoration: without it the app still works.
      });
    return () => controller.abort();
  }, []);
  return version;
}

function SandboxBanner() {
  return (
    <div id="sandbox-banner" class="sandbox-banner" role="status">
      <p>
        <strong>Sandbox mode</strong> — payments and sign-in use offline test stand-ins; no real money moves.
      </p>
    </div>
  );
}

/** Header account area: the signed-in name and "Sign out", or one "Sign in" link. */
function SessionControls({ path }: { path: string }) {
  const { me, loading, signOut } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (loading && !me) {
    // Keep the space quiet until we know; avoids flashing "Sign in".
    return <div class="session" aria-hidden="true" />;
  }

  if (me) {
    const onSignOut = async () => {
      if (busy) {
        return;
      }
      setBusy(true);
      setError(null);
      try {
        await signOut();
      } catch (caught) {
        setError(caught instanceof Error ? caught.message : 'Please try again.');
        setBusy(false);
      }
    };
    return (
      <div class="session">
        <Link id="account-name" class="session__name" href="/account" title="Your account">
          {me.display_name}
        </Link>
        <button
          id="signout"
          type="button"
          class="button"
          aria-disabled={busy ? 'true' : undefined}
          onClick={() => void onSignOut()}
        >
          Sign out
        </button>
        {error && (
          <p id="signout-error" class="session__error" role="alert">
            Sign-out failed: {error}
          </p>
        )}
      </div>
    );
  }

  // On the sign-in page itself, keep its return_to instead of pointing at /signin.
  const returnTo =
    path === '/signin'
      ? safeReturnTo(new URLSearchParams(window.location.search).get('return_to'))
      : `${window.location.pathname}${window.location.search}`;
  return (
    <div class="session">
      <Link
        id="signin-link"
        class="button"
        href={signInPageHref(returnTo)}
        aria-current={path === '/signin' ? 'page' : undefined}
      >
        Sign in
      </Link>
    </div>
  );
}

export function App() {
  const path = usePath();
  const version = useVersion();
  const { me } = useSession();
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    document.title = pageTitle(path);
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // After a client-side navigation, move focus to the new page's heading so
    // keyboard and screen-reader users land on the new content.
    window.scrollTo(0, 0);
    const heading = mainRef.current?.querySelector<HTMLElement>('h1');
    const target = heading ?? mainRef.current;
    if (target) {
      if (!target.hasAttribute('tabindex')) {
        target.setAttribute('tabindex', '-1');
      }
      target.focus();
    }
  }, [path]);

  // the operator console's wide tables get the whole of a laptop screen, header and footer alike
  const container = path.startsWith('/operator') ? 'container container--wide' : 'container';
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to main content
      </a>
      {version?.mode === 'sandbox' && <SandboxBanner />}
      <header class="site-header">
        <div class={`${container} site-header__inner`}>
          <Link href="/" class="site-title" aria-current={path === '/' ? 'page' : undefined}>
            {SITE_NAME}
          </Link>
          <nav aria-label="Main" class="main-nav">
            <ul>
              {navItems(me).map((item) => (
                <li key={item.path}>
                  <Link
                    id={`nav-${item.path.slice(1)}`}
                    href={item.path}
                    aria-current={isCurrent(item.path, path) ? 'page' : undefined}
                  >
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <SessionControls path={path} />
        </div>
      </header>
      <main
        id="main"
        class={`${container} site-main`}
        tabIndex={-1}
        ref={mainRef}
      >
        <Page path={path} version={version} />
      </main>
      <footer id="site-footer" class="site-footer">
        <div class={`${container} site-footer__inner`}>
          <ul class="footer-links">
            <li>
              <a href="/docs">API docs</a>
            </li>
            <li>
              <a href="/api/v1/openapi.yaml">OpenAPI spec</a>
            </li>
          </ul>
          {version && (
            <p id="build-version" class="build-version">
              Version {version.version} · API schema {version.schema_version}
            </p>
          )}
        </div>
      </footer>
    </>
  );
}
