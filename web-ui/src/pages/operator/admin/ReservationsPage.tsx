/** Operator console → Reservations: every renter's reservations with filters, and a manual refund or credit. */
import { useState } from 'preact/hooks';
import { formatDateTime } from '../../../format';
import { LoadMore } from '../../../load-more';
import { errorText, localInputToUtc, money } from '../../../offers';
import { usePagedList } from '../../../paged-list';
import { RESERVATION_STATUSES, reservationHref, statusLabel } from '../../../reservations';
import { Link } from '../../../router';
import type { Me } from '../../../session';
import { StatusBadge } from '../../../status-badge';
import { listAllReservations, type OperatorReservation, type ReservationFilter } from './admin-api';
import { RefundForm } from './RefundForm';
import './admin.css';

const NO_FILTER: ReservationFilter = { status: '', account_id: '', host_id: '', from: '', to: '' };

export function ReservationsAdminPage({ me }: { me: Me }) {
  const [draft, setDraft] = useState<ReservationFilter>(NO_FILTER);
  const [filter, setFilter] = useState<ReservationFilter>(NO_FILTER);
  const [refunding, setRefunding] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const list = usePagedList<OperatorReservation, string>({
    fetchPage: (cursor, signal) => listAllReservations(filter, cursor, signal),
    deps: [filter],
    noun: 'reservation',
    emptyText: 'No reservation matches.',
    loadProblem: (caught) => errorText(caught, 'Could not load the reservations.'),
    moreProblem: (caught) => errorText(caught, 'Could not load more reservations.'),
  });
  const set = (key: keyof ReservationFilter) => (e: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [key]: e.currentTarget.value });

  return (
    <section aria-labelledby="admin-reservations-heading" class="admin-page">
      <h2 id="admin-reservations-heading">Reservations</h2>
      <form
        id="reservation-filters"
        class="admin-filters"
        onSubmit={(e) => {
          e.preventDefault();
          setRefunding(null);
          setFilter({
            ...draft,
            account_id: draft.account_id.trim(),
            host_id: draft.host_id.trim(),
            from: draft.from ? localInputToUtc(draft.from) ?? '' : '',
            to: draft.to ? localInputToUtc(draft.to) ?? '' : '',
          });
        }}
      >
        <div class="field">
          <label for="filter-status">Status</label>
          <select id="filter-status" value={draft.status} onChange={set('status')}>
            <option value="">Any</option>
            {RESERVATION_STATUSES.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-account">Account id</label>
          <input id="filter-account" type="text" placeholder="acc_…" value={draft.account_id} onInput={set('account_id')} />
        </div>
        <div class="field">
          <label for="filter-host">Host id</label>
          <input id="filter-host" type="text" placeholder="host_…" value={draft.host_id} onInput={set('host_id')} />
        </div>
        <div class="field">
          <label for="filter-from">Window ends after</label>
          <input id="filter-from" type="datetime-local" value={draft.from} onInput={set('from')} />
        </div>
        <div class="field">
          <label for="filter-to">Window starts before</label>
          <input id="filter-to" type="datetime-local" value={draft.to} onInput={set('to')} />
        </div>
        <div class="form-actions">
          <button type="submit" class="btn btn--primary">
            Apply filters
          </button>
        </div>
      </form>
      {message && (
        <p id="reservations-message" class="notice" role="status">
          {message}
        </p>
      )}
      <p class="visually-hidden" role="status">
        {list.summary}
      </p>
      {list.problem && (
        <p class="alert alert--error" role="alert">
          {list.problem}
        </p>
      )}
      {list.items && list.items.length === 0 && <p class="muted">No reservation matches.</p>}
      {list.items && list.items.length > 0 && (
        <div class="table-wrap">
          <table id="admin-reservations-table" class="data-table admin-table">
            <caption class="visually-hidden">Reservations of every renter, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Reservation</th>
                <th scope="col">Renter</th>
                <th scope="col">Window</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">Paid</th>
                <th scope="col" class="num">Refunded</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((r) => (
                <>
                  <tr key={r.id} id={`admin-reservation-${r.id}`}>
                    <th scope="row">
                      <Link href={reservationHref(r.id)}>{r.id}</Link>
                      <span class="admin-sub muted">
                        {r.gpu_count} GPU · {r.host_id}
                      </span>
                    </th>
                    <td>
                      {r.account.display_name ?? r.account.id}
                      <span class="admin-sub muted">{r.account.primary_email ?? r.account.id}</span>
                      {r.account.suspended && <strong class="badge badge--danger">Suspended</strong>}
                    </td>
                    <td>
                      <time dateTime={r.start}>{formatDateTime(r.start)}</time> –{' '}
                      <time dateTime={r.end}>{formatDateTime(r.end)}</time>
                    </td>
                    <td>
                      <StatusBadge status={r.status} />
                    </td>
                    <td class="num">{money(r.paid)}</td>
                    <td class="num">{money(r.refunded)}</td>
                    <td>
                      <button type="button" class="btn btn--small" id={`refund-${r.id}`} disabled={r.refundable.amount <= 0}
                        aria-expanded={refunding === r.id ? 'true' : 'false'}
                        onClick={() => {
                          setMessage(null);
                          setRefunding(refunding === r.id ? null : r.id);
                        }}>
                        Refund or credit…
                      </button>
                    </td>
                  </tr>
                  {refunding === r.id && (
                    <tr class="admin-confirm-row">
                      <td colSpan={7}>
                        <RefundForm me={me} reservation={r} onCancel={() => setRefunding(null)}
                          onDone={(text) => {
                            setRefunding(null);
                            setMessage(text);
                            list.reload();
                          }} />
                      </td>
                    </tr>
                  )}
                </>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.nextCursor && (
        <LoadMore id="admin-reservations-more" loading={list.loadingMore} error={list.moreError}
          onLoad={() => void list.loadMore()} />
      )}
    </section>
  );
}
