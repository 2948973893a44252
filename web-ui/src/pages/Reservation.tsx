import type { JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { signInPageHref } from '../auth';
import { formatRemaining, useNow } from '../clock';
import { formatDateTime } from '../format';
import { errorText, formatCount, gpusLabel, isAbort, money, offerHref } from '../offers';
import { ItemsTable } from '../price-table';
import {
  cancelReservation,
  getReservation,
  handleSessionEnded,
  reservationHref,
  statusClass,
  statusLabel,
  type Reservation,
} from '../reservations';
import { SITE_NAME } from '../routes';
import { Link } from '../router';
import { useSession, type Me } from '../session';

/** While a hold awaits payment, the page re-reads the reservation this often. */
const POLL_MS = 5000;

export function StatusBadge({ status, id }: { status: string; id?: string }) {
  return (
    <span id={id} class={`status-badge status-badge--${statusClass(status)}`} data-status={status}>
      {statusLabel(status)}
    </span>
  );
}

/** `/reservations/{id}` */
export function ReservationPage({ id }: { id: string }) {
  const session = useSession();

  if (session.loading && !session.me) {
    return (
      <>
        <Breadcrumb />
        <h1>Reservation</h1>
        <p class="muted" role="status">
          Loading the reservation…
        </p>
      </>
    );
  }

  if (!session.me) {
    return (
      <>
        <Breadcrumb />
        <h1>Reservation</h1>
        {session.error && (
          <div id="reservation-session-error" class="alert alert--error" role="alert">
            <p>Could not load your account: {session.error}</p>
            <button type="button" class="btn" onClick={() => void session.refresh()}>
              Try again
            </button>
          </div>
        )}
        <div id="reservation-signed-out" class="panel">
          <p>Sign in to see this reservation.</p>
          <Link id="reservation-signin" class="btn btn--primary" href={signInPageHref(reservationHref(id))}>
            Sign in
          </Link>
        </div>
      </>
    );
  }

  return <ReservationView id={id} me={session.me} />;
}

function Breadcrumb() {
  return (
    <p class="breadcrumb">
      <Link id="back-to-reservations" href="/reservations">
        ← All reservations
      </Link>
    </p>
  );
}

interface LoadError {
  status: number;
  message: string;
}

function ReservationView({ id, me }: { id: string; me: Me }) {
  const [reservation, setReservation] = useState<Reservation | null>(null);
  const [loadError, setLoadError] = useState<LoadError | null>(null);
  const [refreshError, setRefreshError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [reloadKey, setReloadKey] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const lastStatus = useRef<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      inFlight.current?.abort();
    };
  }, []);

  const apply = useCallback((next: Reservation) => {
    if (lastStatus.current !== null && lastStatus.current !== next.status) {
      setAnnouncement(`Status changed to ${statusLabel(next.status)}.`);
      // The hold's buttons may go away: don't leave keyboard focus on nothing.
      if (document.activeElement?.closest('#hold')) {
        window.setTimeout(() => {
          if (!document.activeElement || document.activeElement === document.body) {
            headingRef.current?.focus();
          }
        }, 0);
      }
    }
    lastStatus.current = next.status;
    setReservation(next);
  }, []);

  /** Reads the reservation; `quiet` (polling) keeps the page as it is when that fails. */
  const load = useCallback(
    async (quiet: boolean) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      try {
        const next = await getReservation(id, controller.signal);
        if (!next || typeof next !== 'object' || typeof next.id !== 'string') {
          throw new Error('Unexpected response for this reservation.');
        }
        if (!mounted.current) {
          return;
        }
        apply(next);
        setLoadError(null);
        setRefreshError(null);
      } catch (caught) {
        if (isAbort(caught) || !mounted.current || handleSessionEnded(caught)) {
          return;
        }
        const status = caught instanceof ApiError ? caught.status : 0;
        const message = errorText(caught, 'Could not load this reservation.');
        if (quiet && status !== 404) {
          setRefreshError(message);
        } else {
          setLoadError({ status, message });
        }
      } finally {
        if (inFlight.current === controller) {
          inFlight.current = null;
        }
      }
    },
    [id, apply],
  );

  useEffect(() => {
    void load(false);
  }, [load, reloadKey]);

  const status = reservation?.status ?? null;
  const pending = status === 'pending_payment';
  const notFound = loadError?.status === 404;

  // While the hold awaits payment, re-read it so "expired" (or a payment) shows up.
  useEffect(() => {
    if (!pending || notFound) {
      return;
    }
    const timer = window.setInterval(() => {
      if (!document.hidden && !inFlight.current) {
        void load(true);
      }
    }, POLL_MS);
    const onVisible = () => {
      if (!document.hidden) {
        void load(true);
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [pending, notFound, load]);

  useEffect(() => {
    if (!pending) {
      setConfirming(false);
    }
  }, [pending]);

  useEffect(() => {
    document.title = notFound ? `Reservation not found — ${SITE_NAME}` : `Reservation ${id} — ${SITE_NAME}`;
  }, [id, notFound]);

  const onCancelClick = async () => {
    if (cancelling || !reservation) {
      return;
    }
    if (!confirming) {
      setConfirming(true);
      setActionError(null);
      setAnnouncement('Press “Confirm cancel” to release the held GPUs, or “Keep hold” to keep them.');
      return;
    }
    setCancelling(true);
    setActionError(null);
    try {
      const updated = await cancelReservation(me, reservation.id);
      if (!mounted.current) {
        return;
      }
      setConfirming(false);
      if (updated && typeof updated.id === 'string') {
        apply(updated);
      }
      setAnnouncement('Hold cancelled: the GPUs are released.');
      // The buttons are gone: continue from the heading.
      headingRef.current?.focus();
      void load(true);
    } catch (caught) {
      if (!mounted.current || handleSessionEnded(caught)) {
        return;
      }
      setConfirming(false);
      setActionError(`Could not cancel the hold: ${errorText(caught, 'request failed')}`);
      window.setTimeout(() => alertRef.current?.focus(), 0);
      // It may have expired or been paid meanwhile.
      void load(true);
    } finally {
      if (mounted.current) {
        setCancelling(false);
      }
    }
  };

  const keepHold = () => {
    setConfirming(false);
    setAnnouncement('The hold is kept.');
    cancelRef.current?.focus();
  };

  const onHoldOver = useCallback(() => {
    // The server's sweeper turns it "expired" shortly; read it now rather than at the next tick.
    if (!inFlight.current) {
      void load(true);
    }
  }, [load]);

  const heading = reservation ? (
    <>
      Reservation <span class="reservation-title__id">{reservation.id}</span>{' '}
      <StatusBadge id="reservation-status" status={reservation.status} />
    </>
  ) : notFound ? (
    'Reservation not found'
  ) : (
    'Reservation'
  );

  return (
    <>
      <Breadcrumb />
      <h1 class="reservation-title" ref={headingRef} tabIndex={-1}>
        {heading}
      </h1>
      <p id="reservation-announcer" class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {notFound ? (
        <div id="reservation-not-found" class="empty-state">
          <p>
            There is no reservation <code>{id}</code> in your account.
          </p>
          <p>
            <Link href="/reservations">See your reservations</Link>.
          </p>
        </div>
      ) : loadError && !reservation ? (
        <div id="reservation-load-error" class="alert alert--error" role="alert">
          <p>Could not load this reservation: {loadError.message}</p>
          <button type="button" class="btn" onClick={() => setReloadKey((key) => key + 1)}>
            Try again
          </button>
        </div>
      ) : !reservation ? (
        <p class="muted" role="status">
          Loading the reservation…
        </p>
      ) : (
        <>
          <p class="lead">
            {gpusLabel(reservation.gpu_count)} × {formatCount(reservation.hours)} h, {formatDateTime(reservation.start)}{' '}
            to {formatDateTime(reservation.end)}
          </p>
          {actionError && (
            <div id="reservation-error" class="alert alert--error" role="alert" tabIndex={-1} ref={alertRef}>
              <p>{actionError}</p>
            </div>
          )}
          {refreshError && (
            <p id="reservation-refresh-error" class="muted">
              Could not refresh the status ({refreshError}); trying again in a few seconds.
            </p>
          )}
          {pending && (
            <section id="hold" class="panel hold-panel" aria-labelledby="hold-heading">
              <h2 id="hold-heading">GPUs on hold</h2>
              {reservation.hold_expires_at && (
                <HoldCountdown expiresAt={reservation.hold_expires_at} onOver={onHoldOver} />
              )}
              {reservation.payment.checkout_url && reservation.payment.status === 'pending' ? (
                <p id="payment-note" class="note">
                  Pay before the hold ends to confirm the reservation.{' '}
                  <a id="pay" class="btn btn--primary" href={reservation.payment.checkout_url}>
                    Pay by card
                  </a>
                </p>
              ) : (
                <p id="payment-note" class="note">
                  No card payment was started for this hold; the GPUs stay held until it ends.
                </p>
              )}
              <div class="form-actions">
                <button
                  id="cancel-reservation"
                  ref={cancelRef}
                  type="button"
                  class={`btn btn--danger${confirming ? ' cancel-reservation--confirm' : ''}`}
                  disabled={cancelling}
                  aria-busy={cancelling ? 'true' : undefined}
                  onClick={() => void onCancelClick()}
                  onKeyDown={(event: JSX.TargetedKeyboardEvent<HTMLButtonElement>) => {
                    if (event.key === 'Escape' && confirming) {
                      event.preventDefault();
                      keepHold();
                    }
                  }}
                >
                  {cancelling ? 'Cancelling…' : confirming ? 'Confirm cancel' : 'Cancel hold'}
                </button>
                {confirming && !cancelling && (
                  <button id="keep-reservation" type="button" class="btn" onClick={keepHold}>
                    Keep hold
                  </button>
                )}
              </div>
            </section>
          )}
          {status === 'expired' && <LapsedHold reservation={reservation} />}
          <Details reservation={reservation} />
        </>
      )}
    </>
  );
}

/** An unpaid hold that ran out: its GPUs went back to the pool. */
function LapsedHold({ reservation: r }: { reservation: Reservation }) {
  const lapsed = [...(r.events ?? [])].reverse().find((event) => event.to === 'expired');
  const future = new Date(r.start).getTime() > Date.now();
  return (
    <section id="hold" class="panel hold-panel hold-panel--over" aria-labelledby="hold-heading">
      <h2 id="hold-heading">Hold ended</h2>
      <p>
        <strong id="hold-countdown" class="hold-countdown hold-countdown--over">
          Hold expired
        </strong>
        {lapsed && (
          <>
            {' '}
            at <time dateTime={lapsed.at}>{formatDateTime(lapsed.at)}</time>
          </>
        )}
        : it was not paid in time, so the GPUs were released.
      </p>
      <p>
        <Link href={offerHref(r.offer_id, { start: future ? r.start : undefined, hours: r.hours, gpus: r.gpu_count })}>
          {future ? 'Get a new quote for this window' : 'Get a new quote for this offer'}
        </Link>{' '}
        to reserve it again.
      </p>
    </section>
  );
}

/** "1 h 04 min 09 s", "4 min 07 s", "9 s": ticks visibly every second. */
function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  if (total < 3600) {
    return formatRemaining(ms);
  }
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `${hours} h ${String(minutes).padStart(2, '0')} min ${String(seconds).padStart(2, '0')} s`;
}

/**
 * The time left on the hold. The ticking text is hidden from screen readers;
 * a polite summary changes at most once a minute.
 */
function HoldCountdown({ expiresAt, onOver }: { expiresAt: string; onOver: () => void }) {
  const at = new Date(expiresAt).getTime();
  const valid = !Number.isNaN(at);
  const now = useNow(valid && at > Date.now());
  const remaining = valid ? at - now : 0;
  const over = valid && remaining <= 0;

  useEffect(() => {
    if (over) {
      onOver();
    }
  }, [over]);

  if (!valid) {
    return null;
  }
  const minutes = Math.ceil(remaining / 60000);
  const summary = over
    ? 'Hold expired.'
    : minutes <= 1
      ? 'Less than a minute left on the hold.'
      : `About ${formatCount(minutes)} minutes left on the hold.`;

  return (
    <>
      <p class="hold-countdown-line">
        Held until <time dateTime={expiresAt}>{formatDateTime(expiresAt)}</time>:{' '}
        <strong id="hold-countdown" class={`hold-countdown${over ? ' hold-countdown--over' : ''}`} aria-hidden="true">
          {over ? 'Hold expired' : `${formatCountdown(remaining)} left`}
        </strong>
      </p>
      <p id="hold-countdown-summary" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {summary}
      </p>
    </>
  );
}

function Details({ reservation: r }: { reservation: Reservation }) {
  const indexes = Array.isArray(r.gpu_indexes) ? r.gpu_indexes : [];
  return (
    <>
      <section class="section" aria-labelledby="reservation-window-heading">
        <h2 id="reservation-window-heading">Window and GPUs</h2>
        <dl class="details">
          <div>
            <dt>Window</dt>
            <dd id="reservation-window">
              <time dateTime={r.start}>{formatDateTime(r.start)}</time> to{' '}
              <time dateTime={r.end}>{formatDateTime(r.end)}</time> ({formatCount(r.hours)} h)
            </dd>
          </div>
          <div>
            <dt>GPUs</dt>
            <dd id="reservation-gpus">
              {gpusLabel(r.gpu_count)}
              {indexes.length > 0 && (
                <>
                  {' '}
                  (GPU {indexes.length === 1 ? 'index' : 'indexes'} {indexes.map((index) => formatCount(index)).join(', ')})
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>Offer</dt>
            <dd>
              <Link id="reservation-offer" href={`/catalog/${encodeURIComponent(r.offer_id)}`}>
                <code>{r.offer_id}</code>
              </Link>
            </dd>
          </div>
          <div>
            <dt>Host</dt>
            <dd>
              <code id="reservation-host">{r.host_id}</code>
            </dd>
          </div>
          <div>
            <dt>Payment</dt>
            <dd id="reservation-payment">
              {r.payment?.method === 'checkout' ? 'Checkout' : r.payment?.method || '—'}
              {r.status === 'pending_payment' && <span class="muted"> (opens soon)</span>}
            </dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd id="reservation-created">{formatDateTime(r.created_at)}</dd>
          </div>
        </dl>
      </section>
      <section class="section" aria-labelledby="reservation-price-heading">
        <h2 id="reservation-price-heading">Price</h2>
        {r.price ? (
          <>
            <ItemsTable
              id="reservation-price-items"
              items={r.price.items}
              total={r.price.total}
              totalId="reservation-total"
              caption="Price of this reservation, item by item"
            />
            <p class="hint">
              {money(r.price.price_per_gpu_hour)} per GPU-hour before discounts, fees and taxes. Quote{' '}
              <code>{r.price.quote_id}</code>.
            </p>
            {r.price.cancellation_policy && (
              <>
                <h3 class="subheading">Cancellation policy</h3>
                <p id="reservation-cancellation-policy" class="quote-policy">
                  {r.price.cancellation_policy}
                </p>
              </>
            )}
          </>
        ) : (
          <p class="muted">No price recorded.</p>
        )}
      </section>
      <SshAccess reservation={r} />
      <section class="section" aria-labelledby="reservation-timeline-heading">
        <h2 id="reservation-timeline-heading">Status history</h2>
        <Timeline reservation={r} />
      </section>
    </>
  );
}

function SshAccess({ reservation: r }: { reservation: Reservation }) {
  const endpoint = r.ssh?.endpoint ?? null;
  const codeRef = useRef<HTMLElement>(null);
  const [copyStatus, setCopyStatus] = useState('');

  const copy = async () => {
    if (!endpoint) {
      return;
    }
    try {
      if (!navigator.clipboard || typeof navigator.clipboard.writeText !== 'function') {
        throw new Error('Clipboard unavailable');
      }
      await navigator.clipboard.writeText(endpoint);
      setCopyStatus('Copied');
    } catch {
      const selection = window.getSelection();
      if (selection && codeRef.current) {
        selection.selectAllChildren(codeRef.current);
      }
      setCopyStatus('Selected: press Ctrl+C (⌘C on a Mac) to copy.');
    }
  };

  return (
    <section class="section" aria-labelledby="ssh-heading">
      <h2 id="ssh-heading">SSH access</h2>
      <dl class="details">
        <div>
          <dt>Key fingerprint</dt>
          <dd>
            <code id="ssh-fingerprint">{r.ssh?.fingerprint || '—'}</code>
          </dd>
        </div>
      </dl>
      {endpoint ? (
        <>
          <p class="ssh-command-label">Connect with:</p>
          <pre id="ssh-command" class="code-block">
            <code ref={codeRef}>{endpoint}</code>
          </pre>
          <div class="copy-row">
            <button id="copy-ssh-command" type="button" class="btn" onClick={() => void copy()}>
              Copy command
            </button>
          </div>
          <p class="copy-status" role="status" aria-live="polite">
            {copyStatus}
          </p>
        </>
      ) : (
        <p id="ssh-pending" class="muted">
          The SSH command appears here once your machine is running.
        </p>
      )}
    </section>
  );
}

function Timeline({ reservation: r }: { reservation: Reservation }) {
  const events = (Array.isArray(r.events) ? [...r.events] : []).sort(
    (a, b) => new Date(a.at).getTime() - new Date(b.at).getTime(),
  );
  if (events.length === 0) {
    return (
      <p id="reservation-timeline" class="muted">
        No status changes recorded yet.
      </p>
    );
  }
  return (
    <ol id="reservation-timeline" class="timeline">
      {events.map((event, index) => (
        <li key={`${event.at}-${index}`} class="timeline__item" data-status={event.to}>
          <StatusBadge status={event.to} />
          <time class="timeline__time" dateTime={event.at}>
            {formatDateTime(event.at)}
          </time>
          {event.cause && <span class="timeline__cause">{event.cause}</span>}
        </li>
      ))}
    </ol>
  );
}
