import { LoadMore } from '../load-more';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { signInPageHref } from '../auth';
import { formatDateTime } from '../format';
import { catalogHref, errorText, formatCount, gpusLabel, isAbort, money } from '../offers';
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
import { useSession } from '../session';
import { StatusBadge } from '../status-badge';

/** `/reservations?status=…`: your reservations, newest first, filtered by status. */
export function ReservationsPage() {
  const session = useSession();

  if (session.loading && !session.me) {
    return (
      <>
        <h1>Reservations</h1>
        <p class="muted" role="status">
          Loading your reservations…
        </p>
      </>
    );
  }

  if (!session.me) {
    return (
      <>
        <h1>Reservations</h1>
        {session.error && (
          <div id="reservations-session-error" class="alert alert--error" role="alert">
            <p>Could not load your account: {session.error}</p>
            <button type="button" class="btn" onClick={() => void session.refresh()}>
              Try again
            </button>
          </div>
        )}
        <div id="reservations-signed-out" class="panel">
          <p>Sign in to see your GPU reservations: held, running and past.</p>
          <Link id="reservations-signin" class="btn btn--primary" href={signInPageHref('/reservations')}>
            Sign in
          </Link>
        </div>
      </>
    );
  }

  return <ReservationList accountId={session.me.id} />;
}

function statusFromSearch(search: string): string {
  const status = new URLSearchParams(search).get('status');
  return isReservationStatus(status) ? status : '';
}

function ReservationList({ accountId }: { accountId: string }) {
  const search = useSearch();
  const status = useMemo(() => statusFromSearch(search), [search]);
  const [items, setItems] = useState<Reservation[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [moreError, setMoreError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [summary, setSummary] = useState('');
  const [reloadKey, setReloadKey] = useState(0);
  const moreController = useRef<AbortController | null>(null);
  const listRef = useRef<HTMLTableSectionElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    moreController.current?.abort();
    setLoading(true);
    setLoadingMore(false);
    setMoreError(null);
    setSummary('Loading reservations…');
    listReservations({ status }, controller.signal)
      .then((page) => {
        const data = Array.isArray(page?.data) ? page.data : [];
        setItems(data);
        setNextCursor(page?.next_cursor ?? null);
        setError(null);
        setSummary(
          data.length === 0
            ? status
              ? `No ${statusLabel(status).toLowerCase()} reservations.`
              : 'You have no reservations yet.'
            : `${data.length === 1 ? '1 reservation' : `${formatCount(data.length)} reservations`}${page?.next_cursor ? ' shown, more available' : ''}.`,
        );
        setLoading(false);
      })
      .catch((caught) => {
        if (isAbort(caught) || handleSessionEnded(caught)) {
          return;
        }
        setItems(null);
        setNextCursor(null);
        setError(errorText(caught, 'Could not load your reservations.'));
        setSummary('');
        setLoading(false);
      });
    return () => controller.abort();
  }, [status, accountId, reloadKey]);

  const loadMore = async () => {
    if (!nextCursor || loadingMore) {
      return;
    }
    const controller = new AbortController();
    moreController.current = controller;
    setLoadingMore(true);
    setMoreError(null);
    const firstNew = items?.length ?? 0;
    try {
      const page = await listReservations({ status, cursor: nextCursor }, controller.signal);
      const data = Array.isArray(page?.data) ? page.data : [];
      setItems((current) => {
        const seen = new Set((current ?? []).map((item) => item.id));
        return [...(current ?? []), ...data.filter((item) => !seen.has(item.id))];
      });
      setNextCursor(page?.next_cursor ?? null);
      setSummary(`${data.length === 1 ? '1 more reservation' : `${formatCount(data.length)} more reservations`} loaded.`);
      if (!page?.next_cursor) {
        // The button goes away: continue from the first new row.
        window.setTimeout(() => {
          listRef.current?.querySelectorAll<HTMLElement>('.reservation-row a')[firstNew]?.focus();
        }, 0);
      }
    } catch (caught) {
      if (!isAbort(caught) && !handleSessionEnded(caught)) {
        setMoreError(errorText(caught, 'Could not load more reservations.'));
      }
    } finally {
      if (moreController.current === controller) {
        setLoadingMore(false);
      }
    }
  };

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
            <button type="button" class="btn" onClick={() => setReloadKey((key) => key + 1)}>
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
