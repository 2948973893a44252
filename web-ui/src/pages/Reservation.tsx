import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { formatApproxIn, formatCountdown, formatLongCountdown, useNow } from '../clock';
import { formatDateTime } from '../format';
import { useReservationChanges } from '../live';
import { errorText, formatCount, gpusLabel, isAbort, money, offerHref, type Money } from '../offers';
import { safeCheckoutUrl } from '../payments';
import { ItemsTable } from '../price-table';
import type { ShownProblem } from '../problem';
import {
  EXTENDABLE_STATUSES,
  FINAL_STATUSES,
  getReservation,
  handleSessionEnded,
  reservationHref,
  statusLabel,
  type Reservation,
} from '../reservations';
import { SITE_NAME } from '../routes';
import { Link } from '../router';
import type { Me } from '../session';
import { SignedInPage } from '../signed-in';
import { StatusBadge } from '../status-badge';
import { CancelControl, canCancel, type CancelControlProps } from './reservation/Cancel';
import { ExtendPanel } from './reservation/Extend';
import { PaymentSection } from './reservation/Payment';

export { StatusBadge };

/** While a hold awaits payment, the page re-reads the reservation this often. */
const POLL_MS = 5000;
/** Other live states: without the event stream, and as a safety net with it. */
const POLL_OFFLINE_MS = 15000;
const POLL_ONLINE_MS = 60000;

/** `/reservations/{id}` */
export function ReservationPage({ id }: { id: string }) {
  return (
    <SignedInPage
      title="Reservation"
      before={<Breadcrumb />}
      loadingText="Loading the reservation…"
      signInText="Sign in to see this reservation."
      returnTo={reservationHref(id)}
      idPrefix="reservation"
    >
      {(me) => <ReservationView id={id} me={me} />}
    </SignedInPage>
  );
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

/** Which action the one alert on the page belongs to (it is shown next to that action). */
interface PageProblem {
  source: 'cancel' | 'extend';
  problem: ShownProblem;
}

/** Parts of the page that go away when the status changes; focus must not vanish with them. */
const TRANSIENT = '#hold, #status-panel, #cancel-section, #extend';

function ReservationView({ id, me }: { id: string; me: Me }) {
  const [reservation, setReservation] = useState<Reservation | null>(null);
  const [loadError, setLoadError] = useState<LoadError | null>(null);
  const [refreshError, setRefreshError] = useState<string | null>(null);
  const [problem, setProblem] = useState<PageProblem | null>(null);
  const [cancelResult, setCancelResult] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [reloadKey, setReloadKey] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
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
      if (document.activeElement?.closest(TRANSIENT)) {
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

  /** Reads the reservation; `quiet` (polling, live updates) keeps the page as it is when that fails. */
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

  const refreshQuietly = useCallback(() => {
    void load(true);
  }, [load]);

  const status = reservation?.status ?? null;
  const notFound = loadError?.status === 404;
  const final = status !== null && FINAL_STATUSES.includes(status);
  const watching = reservation !== null && !final && !notFound;

  // Live: every change to this reservation, made on any node, re-reads it.
  const connected = useReservationChanges(watching, (change) => {
    if (change.reservation_id === id) {
      void load(true);
    }
  });

  // Polling: fast while a hold awaits payment, slow as a safety net otherwise.
  const pollMs = !watching
    ? 0
    : status === 'pending_payment'
      ? POLL_MS
      : connected
        ? POLL_ONLINE_MS
        : POLL_OFFLINE_MS;
  useEffect(() => {
    if (pollMs === 0) {
      return;
    }
    const timer = window.setInterval(() => {
      if (!document.hidden && !inFlight.current) {
        void load(true);
      }
    }, pollMs);
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
  }, [pollMs, load]);

  useEffect(() => {
    document.title = notFound ? `Reservation not found — ${SITE_NAME}` : `Reservation ${id} — ${SITE_NAME}`;
  }, [id, notFound]);

  useEffect(() => {
    if (cancelResult) {
      resultRef.current?.focus();
    }
  }, [cancelResult]);

  /** A countdown reached zero: the server moves the status shortly; read it now. */
  const onTimeReached = useCallback(() => {
    if (!inFlight.current) {
      void load(true);
    }
  }, [load]);

  const problemFor = (source: PageProblem['source']) => (problem?.source === source ? problem.problem : null);
  const setProblemFor = (source: PageProblem['source']) => (next: ShownProblem | null) =>
    setProblem((current) => (next ? { source, problem: next } : current?.source === source ? null : current));

  const onCancelled = (updated: Reservation | null, shownRefund: Money | null) => {
    const hold = reservation?.status === 'pending_payment';
    if (updated) {
      apply(updated);
    }
    const refund = latestRefund(updated) ?? shownRefund;
    const message = hold
      ? 'Hold cancelled: the GPUs are released.'
      : refund && refund.amount > 0
        ? `Reservation cancelled. ${money(refund)} is refunded to your card.`
        : 'Reservation cancelled. Nothing is refunded under the cancellation policy.';
    setCancelResult(message);
    setAnnouncement(message);
    void load(true);
  };

  const cancelProps: Omit<CancelControlProps, 'reservation'> = {
    me,
    problem: problemFor('cancel'),
    onProblem: setProblemFor('cancel'),
    onCancelled,
    onRefresh: refreshQuietly,
    announce: setAnnouncement,
  };

  const heading = reservation ? (
    <>
      Reservation <span class="reservation-title__id">{reservation.id}</span>{' '}
      <span id="status" class="status-live" data-status={reservation.status}>
        <StatusBadge id="reservation-status" status={reservation.status} />
      </span>
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
          {cancelResult && (
            <div id="cancel-result" class="panel panel--success" tabIndex={-1} ref={resultRef}>
              <p>{cancelResult}</p>
            </div>
          )}
          {refreshError && (
            <p id="reservation-refresh-error" class="muted">
              Could not refresh the status ({refreshError}); trying again in a few seconds.
            </p>
          )}
          <StatusPanel reservation={reservation} cancelProps={cancelProps} onTimeReached={onTimeReached} />
          <SshAccess reservation={reservation} />
          {EXTENDABLE_STATUSES.includes(reservation.status) && (
            <ExtendPanel
              reservation={reservation}
              me={me}
              problem={problemFor('extend')}
              onProblem={setProblemFor('extend')}
              onExtended={apply}
              onRefresh={refreshQuietly}
              announce={setAnnouncement}
            />
          )}
          {reservation.status !== 'pending_payment' && canCancel(reservation) && (
            <section id="cancel-section" class="section" aria-labelledby="cancel-heading">
              <h2 id="cancel-heading">Cancel</h2>
              <CancelControl reservation={reservation} {...cancelProps} />
            </section>
          )}
          <Details reservation={reservation} />
          <PaymentSection reservation={reservation} />
          <Price reservation={reservation} />
          <section class="section" aria-labelledby="reservation-timeline-heading">
            <h2 id="reservation-timeline-heading">Status history</h2>
            <Timeline reservation={reservation} />
          </section>
        </>
      )}
    </>
  );
}

/** The newest refund in an answer, if any. */
function latestRefund(r: Reservation | null): Money | null {
  const refunds = r?.payment?.refunds;
  if (!Array.isArray(refunds) || refunds.length === 0) {
    return null;
  }
  const newest = [...refunds].sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime())[0];
  return newest?.amount ?? null;
}

interface StatusPanelProps {
  reservation: Reservation;
  cancelProps: Omit<CancelControlProps, 'reservation'>;
  onTimeReached: () => void;
}

/** What the status means now: the hold and its countdown, the time to the start, or the time left. */
function StatusPanel({ reservation: r, cancelProps, onTimeReached }: StatusPanelProps) {
  switch (r.status) {
    case 'pending_payment':
      return <HoldPanel reservation={r} cancelProps={cancelProps} onOver={onTimeReached} />;
    case 'expired':
      return <LapsedHold reservation={r} />;
    case 'confirmed':
      return (
        <section id="status-panel" class="panel status-panel" aria-labelledby="status-panel-heading">
          <h2 id="status-panel-heading">Confirmed</h2>
          <TimeUntil id="starts-in" at={r.start} label="Starts" what="until the start" onOver={onTimeReached} />
          <p class="hint">Your machine is prepared at the start; the SSH command appears here once it runs.</p>
        </section>
      );
    case 'provisioning':
      return (
        <section id="status-panel" class="panel status-panel" aria-labelledby="status-panel-heading">
          <h2 id="status-panel-heading">Preparing your machine</h2>
          <p>The GPUs are being set up; the SSH command appears here in a moment.</p>
          <TimeUntil id="time-left" at={r.end} label="Ends" what="left" onOver={onTimeReached} />
        </section>
      );
    case 'running':
      return (
        <section id="status-panel" class="panel status-panel status-panel--running" aria-labelledby="status-panel-heading">
          <h2 id="status-panel-heading">Running</h2>
          <TimeUntil id="time-left" at={r.end} label="Ends" what="left" onOver={onTimeReached} />
        </section>
      );
    default:
      return null;
  }
}

function HoldPanel({
  reservation: r,
  cancelProps,
  onOver,
}: {
  reservation: Reservation;
  cancelProps: Omit<CancelControlProps, 'reservation'>;
  onOver: () => void;
}) {
  const checkout = r.payment?.status === 'pending' ? safeCheckoutUrl(r.payment.checkout_url) : null;
  return (
    <section id="hold" class="panel hold-panel" aria-labelledby="hold-heading">
      <h2 id="hold-heading">GPUs on hold</h2>
      {r.hold_expires_at && <HoldCountdown expiresAt={r.hold_expires_at} onOver={onOver} />}
      {checkout ? (
        <p id="payment-note" class="note">
          Pay before the hold ends to confirm the reservation.{' '}
          <a id="pay" class="btn btn--primary" href={checkout}>
            Pay {money(r.price?.total)} by card
          </a>
        </p>
      ) : (
        <p id="payment-note" class="note">
          No card payment was started for this hold; the GPUs stay held until it ends.
        </p>
      )}
      {canCancel(r) && <CancelControl reservation={r} {...cancelProps} />}
    </section>
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

/** Calls `onOver` once when the countdown reaches zero. */
function useOver(over: boolean, onOver: () => void): void {
  useEffect(() => {
    if (over) {
      onOver();
    }
  }, [over]);
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
  useOver(over, onOver);

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

interface TimeUntilProps {
  /** Element id of the ticking text. */
  id: string;
  at: string;
  /** "Starts", "Ends" */
  label: string;
  /** "until the start", "left" */
  what: string;
  onOver: () => void;
}

/** "Ends 3 Dec, 14:00 UTC: 2 h 04 min 09 s left", ticking; screen readers get a coarse summary. */
function TimeUntil({ id, at, label, what, onOver }: TimeUntilProps) {
  const time = new Date(at).getTime();
  const valid = !Number.isNaN(time);
  const now = useNow(valid && time > Date.now());
  const remaining = valid ? time - now : 0;
  const over = valid && remaining <= 0;
  useOver(over, onOver);

  if (!valid) {
    return null;
  }
  return (
    <>
      <p class="countdown-line">
        {label} <time dateTime={at}>{formatDateTime(at)}</time>:{' '}
        <strong id={id} class="countdown" aria-hidden="true" data-remaining-ms={Math.max(0, remaining)}>
          {over ? 'now' : `${formatLongCountdown(remaining)} ${what}`}
        </strong>
      </p>
      <p id={`${id}-summary`} class="visually-hidden">
        {over ? `${label} now.` : `${label} ${formatApproxIn(remaining)}.`}
      </p>
    </>
  );
}

function Details({ reservation: r }: { reservation: Reservation }) {
  const indexes = Array.isArray(r.gpu_indexes) ? r.gpu_indexes : [];
  return (
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
          <dt>Created</dt>
          <dd id="reservation-created">{formatDateTime(r.created_at)}</dd>
        </div>
      </dl>
    </section>
  );
}

function Price({ reservation: r }: { reservation: Reservation }) {
  return (
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
  );
}

function SshAccess({ reservation: r }: { reservation: Reservation }) {
  const command = r.ssh?.command || r.ssh?.endpoint || null;
  const codeRef = useRef<HTMLElement>(null);
  const [copyStatus, setCopyStatus] = useState('');

  const copy = async () => {
    if (!command) {
      return;
    }
    try {
      if (!navigator.clipboard || typeof navigator.clipboard.writeText !== 'function') {
        throw new Error('Clipboard unavailable');
      }
      await navigator.clipboard.writeText(command);
      setCopyStatus('Copied');
    } catch {
      // No clipboard access (plain HTTP, permissions): select the text for Ctrl+C instead.
      const selection = window.getSelection();
      if (selection && codeRef.current) {
        selection.selectAllChildren(codeRef.current);
      }
      setCopyStatus('Selected: press Ctrl+C (⌘C on a Mac) to copy.');
    }
  };

  return (
    <section id="ssh-access" class="section" aria-labelledby="ssh-heading">
      <h2 id="ssh-heading">SSH access</h2>
      {command ? (
        <>
          <p id="ssh-command-label" class="ssh-command-label">
            Connect with:
          </p>
          <pre id="ssh-command" class="code-block" aria-labelledby="ssh-command-label">
            <code ref={codeRef}>{command}</code>
          </pre>
          <div class="copy-row">
            <button id="copy-ssh-command" type="button" class="btn" onClick={() => void copy()}>
              Copy command
            </button>
          </div>
          <p id="ssh-copy-status" class="copy-status" role="status" aria-live="polite">
            {copyStatus}
          </p>
        </>
      ) : (
        <p id="ssh-pending" class="muted">
          {FINAL_STATUSES.includes(r.status)
            ? 'This reservation is over; its machine is no longer reachable.'
            : 'The SSH command appears here once your machine is running.'}
        </p>
      )}
      <dl class="details">
        <div>
          <dt>Key fingerprint</dt>
          <dd>
            <code id="ssh-fingerprint">{r.ssh?.fingerprint || '—'}</code>
          </dd>
        </div>
        {r.ssh?.endpoint && (
          <div>
            <dt>Endpoint</dt>
            <dd>
              <code id="ssh-endpoint">{r.ssh.endpoint}</code>
            </dd>
          </div>
        )}
        {r.ssh?.user && (
          <div>
            <dt>User</dt>
            <dd>
              <code id="ssh-user">{r.ssh.user}</code>
            </dd>
          </div>
        )}
      </dl>
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
        <li
          key={`${event.at}-${index}`}
          class="timeline__item"
          data-from={event.from ?? ''}
          data-status={event.to}
        >
          <time class="timeline__time" dateTime={event.at}>
            {formatDateTime(event.at)}
          </time>
          <span class="timeline__change">
            {event.from ? (
              <>
                <StatusBadge status={event.from} />
                <span class="timeline__arrow" aria-hidden="true">
                  {' '}
                  →{' '}
                </span>
                <span class="visually-hidden"> to </span>
              </>
            ) : (
              <span class="visually-hidden">Created as </span>
            )}
            <StatusBadge status={event.to} />
          </span>
          {event.cause && <span class="timeline__cause">{event.cause}</span>}
        </li>
      ))}
    </ol>
  );
}
