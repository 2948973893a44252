import { formatDateTime } from '../../format';
import type { Reservation } from '../../reservations';
import { StatusBadge } from '../../status-badge';
import './timeline.css';

/** The reservation's status changes, oldest first. */
export function Timeline({ reservation: r }: { reservation: Reservation }) {
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
