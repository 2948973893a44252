import { formatDateTime } from '../../format';
import { formatCount, money } from '../../offers';
import type { Reservation, ReservationCredit } from '../../reservations';

const WHAT: Record<string, string> = {
  ready_late: 'Instance ready late',
  never_ready: 'Instance never became ready',
  downtime: 'Downtime',
  host_failed: 'Host failed',
};

/** Every credit the reservation earned, itemized: what happened, when, how many hours, how much. */
export function CreditsSection({ reservation: r }: { reservation: Reservation }) {
  const credits = Array.isArray(r.credits) ? r.credits : [];
  if (credits.length === 0) {
    return null;
  }
  return (
    <section id="credits-section" class="section" aria-labelledby="credits-heading">
      <h2 id="credits-heading">Credits</h2>
      <p class="hint">Credited to your card automatically under the ready guarantee and the downtime credit.</p>
      <div class="table-wrap">
        <table id="reservation-credits" class="data-table">
          <caption class="visually-hidden">Credits of this reservation</caption>
          <thead>
            <tr>
              <th scope="col">What happened</th>
              <th scope="col">When</th>
              <th scope="col">Hours</th>
              <th scope="col">Credited</th>
            </tr>
          </thead>
          <tbody>
            {credits.map((credit) => (
              <CreditRow key={credit.id} credit={credit} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function CreditRow({ credit }: { credit: ReservationCredit }) {
  return (
    <tr data-credit-kind={credit.kind}>
      <td>
        <strong>{WHAT[credit.kind] ?? credit.kind}</strong>
        <br />
        <span class="muted credit-reason">{credit.reason}</span>
      </td>
      <td>
        <time dateTime={credit.from}>{formatDateTime(credit.from)}</time> –{' '}
        <time dateTime={credit.to}>{formatDateTime(credit.to)}</time>
      </td>
      <td>{formatCount(credit.hours)}</td>
      <td>{money(credit.amount)}</td>
    </tr>
  );
}

/** While the host is not serving the instance: what happened and what the renter gets. */
export function InterruptionNotice({ reservation: r }: { reservation: Reservation }) {
  if (!r.interruption) {
    return null;
  }
  return (
    <div id="reservation-interruption" class="notice" role="status">
      <p>
        Your instance is not being served ({r.interruption.reason}) since {formatDateTime(r.interruption.since)}. The
        lost time is credited by the started hour when it is back; if it is not back soon, the reservation ends and the
        rest is refunded.
      </p>
    </div>
  );
}
