import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDateTime } from '../../format';
import { formatCount, gpusLabel, money, type Money } from '../../offers';
import type { ShownProblem } from '../../problem';
import { EXTENDABLE_STATUSES, reservationHref, type Reservation } from '../../reservations';
import { SITE_NAME } from '../../routes';
import { Link } from '../../router';
import type { Me } from '../../session';
import { SignedInPage } from '../../signed-in';
import { StatusBadge } from '../../status-badge';
import { CancelControl, canCancel, type CancelControlProps } from './Cancel';
import { ExtendPanel } from './Extend';
import { CreditsSection, InterruptionNotice } from './Credits';
import { PaymentSection } from './Payment';
import { Details, Price } from './ReservationFacts';
import { SshAccess } from './SshAccess';
import { StatusPanel } from './StatusPanel';
import { Timeline } from './Timeline';
import { useReservation } from './useReservation';
import './reservation.css';

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

/** Which action the one alert on the page belongs to (it is shown next to that action). */
interface PageProblem {
  source: 'cancel' | 'extend';
  problem: ShownProblem;
}

function ReservationView({ id, me }: { id: string; me: Me }) {
  const {
    reservation,
    loadError,
    notFound,
    refreshError,
    apply,
    refreshQuietly,
    retry,
    onTimeReached,
    announcement,
    announce,
    headingRef,
  } = useReservation(id);
  const [problem, setProblem] = useState<PageProblem | null>(null);
  const [cancelResult, setCancelResult] = useState<string | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    document.title = notFound ? `Reservation not found — ${SITE_NAME}` : `Reservation ${id} — ${SITE_NAME}`;
  }, [id, notFound]);

  useEffect(() => {
    if (cancelResult) {
      resultRef.current?.focus();
    }
  }, [cancelResult]);

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
    announce(message);
    refreshQuietly();
  };

  const cancelProps: Omit<CancelControlProps, 'reservation'> = {
    me,
    problem: problemFor('cancel'),
    onProblem: setProblemFor('cancel'),
    onCancelled,
    onRefresh: refreshQuietly,
    announce,
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
          <button type="button" class="btn" onClick={retry}>
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
          <InterruptionNotice reservation={reservation} />
          <SshAccess reservation={reservation} />
          {EXTENDABLE_STATUSES.includes(reservation.status) && (
            <ExtendPanel
              reservation={reservation}
              me={me}
              problem={problemFor('extend')}
              onProblem={setProblemFor('extend')}
              onExtended={apply}
              onRefresh={refreshQuietly}
              announce={announce}
            />
          )}
          {reservation.status !== 'pending_payment' && canCancel(reservation) && (
            <section id="cancel-section" class="section" aria-labelledby="cancel-heading">
              <h2 id="cancel-heading">Cancel</h2>
              <CancelControl reservation={reservation} {...cancelProps} />
            </section>
          )}
          <Details reservation={reservation} />
          <CreditsSection reservation={reservation} />
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

