import { useMemo, useRef } from 'preact/hooks';
import { formatDateTime } from '../format';
import { LoadMore } from '../load-more';
import { catalogHref } from '../catalog-filters';
import { errorText, formatCount, gpusLabel, money } from '../offers';
import { usePagedList } from '../paged-list';
import {
  handleSessionEnded,
  isReservationStatus,
  listReservations,
  RESERVATION_STATUSES,
  reservationHref,
  statusLabel,
  type Reservation,
} from '../reservations';
import { Link, navigate, useSearch } from '../router';
import { SignedInPage } from '../signed-in';
import type { Me } from '../session';
import { StatusBadge } from '../status-badge';
import { ApprovalNotice } from './Approvals';
import './Reservations.css';

/** `/reservations?status=…`: your reservations, newest first, filtered by status. */
export function ReservationsPage() {
  return (
    <SignedInPage
      title="Reservations"
      loadingText="Loading your reservations…"
      signInText="Sign in to see your GPU reservations: held, running and past."
      returnTo="/reservations"
      idPrefix="reservations"
    >
      {(me) => <ReservationList me={me} />}
    </SignedInPage>
  );
}

function statusFromSearch(search: string): string {
  const status = new URLSearchParams(search).get('status');
  return isReservationStatus(status) ? status : '';
}

function ReservationList({ me }: { me: Me }) {
  const accountId = me.id;
  const search = useSearch();
  const status = useMemo(() => statusFromSearch(search), [search]);
  const listRef = useRef<HTMLTableSectionElement>(null);
  const {
    items,
    nextCursor,
    loading,
    problem: error,
    loadingMore,
    moreError,
    summary,
    reload,
    loadMore,
  } = usePagedList({
    fetchPage: (cursor, signal) => listReservations(cursor ? { status, cursor } : { status }, signal),
    deps: [status, accountId],
    noun: 'reservation',
    emptyText: status ? `No ${statusLabel(status).toLowerCase()} reservations.` : 'You have no reservations yet.',
    loadProblem: (caught) => errorText(caught, 'Could not load your reservations.'),
    moreProblem: (caught) => errorText(caught, 'Could not load more reservations.'),
    handled: handleSessionEnded,
    focusItem: (index) => listRef.current?.querySelectorAll<HTMLElement>('.reservation-row a')[index]?.focus(),
  });

  const onStatusChange = (next: string) => {
    const params = new URLSearchParams(window.location.search);
    if (next) {
      params.set('status', next);
    } else {
      params.delete('status');
    }
    const qs = params.toString();
    navigate(`/reservations${qs ? `?${qs}` : ''}`);
  };

  return (
    <>
      <h1>Reservations</h1>
      <p class="lead">Your GPU reservations, newest first.</p>
      <ApprovalNotice me={me} onDecided={reload} />
      <div class="reservations-toolbar">
        <div class="field">
          <label for="reservations-status">Status</label>
          <select
            id="reservations-status"
            name="status"
            value={status}
            aria-controls="reservations-results"
            onChange={(event) => onStatusChange(event.currentTarget.value)}
          >
            <option value="">All</option>
            {RESERVATION_STATUSES.map((value) => (
              <option key={value} value={value}>
                {statusLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <Link class="btn" href={catalogHref()}>
          Find GPUs in the catalog
        </Link>
      </div>
      <section
        id="reservations-results"
        class="section"
        aria-labelledby="reservations-results-heading"
        aria-busy={loading ? 'true' : undefined}
      >
        <h2 id="reservations-results-heading" class="visually-hidden">
          {status ? `${statusLabel(status)} reservations` : 'All reservations'}
        </h2>
        <p id="reservations-summary" class="catalog-status muted" role="status" aria-live="polite">
          {summary}
        </p>
        {error ? (
          <div id="reservations-error" class="alert alert--error" role="alert">
            <p>Could not load your reservations: {error}</p>
            <button type="button" class="btn" onClick={reload}>
              Try again
            </button>
          </div>
        ) : items === null ? null : items.length === 0 ? (
          <div id="reservations-empty" class="empty-state">
            {status ? (
              <>
                <p>You have no {statusLabel(status).toLowerCase()} reservations.</p>
                <p>
                  <Link href="/reservations">Show all reservations</Link>
                </p>
              </>
            ) : (
              <>
                <p>You have no reservations yet.</p>
                <p>
                  <Link href={catalogHref()}>Browse the catalog</Link>, get a quote for an offer and reserve it.
                </p>
              </>
            )}
          </div>
        ) : (
          <>
            <div class="table-wrap" role="region" aria-labelledby="reservations-results-heading" tabIndex={0}>
              <table id="reservations-list" class="data-table reservations-table">
                <caption class="visually-hidden">Your reservations, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Reservation</th>
                    <th scope="col">Status</th>
                    <th scope="col" class="num">
                      GPUs
                    </th>
                    <th scope="col">Offer</th>
                    <th scope="col">Window</th>
                    <th scope="col" class="num">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody ref={listRef}>
                  {items.map((item) => (
                    <ReservationRow key={item.id} reservation={item} />
                  ))}
                </tbody>
              </table>
            </div>
            {nextCursor && (
              <LoadMore id="reservations-load-more" loading={loadingMore} error={moreError} onLoad={() => void loadMore()} />
            )}
          </>
        )}
      </section>
    </>
  );
}

function ReservationRow({ reservation: r }: { reservation: Reservation }) {
  return (
    <tr class="reservation-row" data-reservation-id={r.id} data-status={r.status}>
      <th scope="row" class="reservation-row__id">
        <Link href={reservationHref(r.id)} aria-label={`Reservation ${r.id}, ${statusLabel(r.status)}: details`}>
          <code>{r.id}</code>
        </Link>
      </th>
      <td>
        <StatusBadge status={r.status} />
      </td>
      <td class="num reservation-row__gpus">{gpusLabel(r.gpu_count)}</td>
      <td class="reservation-row__offer">
        <Link href={`/catalog/${encodeURIComponent(r.offer_id)}`}>
          <code>{r.offer_id}</code>
        </Link>
      </td>
      <td class="reservation-row__window">
        <time dateTime={r.start}>{formatDateTime(r.start)}</time> –{' '}
        <time dateTime={r.end}>{formatDateTime(r.end)}</time>
        <span class="muted"> ({formatCount(r.hours)} h)</span>
      </td>
      <td class="num reservation-row__total">{money(r.price?.total)}</td>
    </tr>
  );
}
