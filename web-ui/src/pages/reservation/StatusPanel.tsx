import { formatDateTime } from '../../format';
import { money, offerHref } from '../../offers';
import { safeCheckoutUrl } from '../../payments';
import type { Reservation } from '../../reservations';
import { Link } from '../../router';
import { CancelControl, canCancel, type CancelControlProps } from './Cancel';
import { HoldCountdown, TimeUntil } from './Countdowns';

interface StatusPanelProps {
  reservation: Reservation;
  cancelProps: Omit<CancelControlProps, 'reservation'>;
  onTimeReached: () => void;
}

/** What the status means now: the hold and its countdown, the time to the start, or the time left. */
export function StatusPanel({ reservation: r, cancelProps, onTimeReached }: StatusPanelProps) {
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

