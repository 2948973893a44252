import { useEffect, useState } from 'preact/hooks';
import { formatDateTime } from '../format';
import { errorText, gpusLabel, money } from '../offers';
import { decideApproval, handleSessionEnded, listReservations, reservationHref, type Reservation } from '../reservations';
import { Link } from '../router';
import type { Me } from '../session';

/**
 * The notice on the Reservations page: reservations your API tokens made above their budget's
 * approval threshold wait for you. Approve (it is paid, a saved card at once) or decline (released,
 * nothing charged); an unanswered one lapses with its hold.
 */
export function ApprovalNotice({ me, onDecided }: { me: Me; onDecided: () => void }) {
  const [waiting, setWaiting] = useState<Reservation[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const load = (signal?: AbortSignal) =>
    listReservations({ status: 'awaiting_approval' }, signal)
      .then((page) => setWaiting(page.data))
      .catch((caught) => {
        if (!handleSessionEnded(caught) && !signal?.aborted) {
          setMessage(errorText(caught, 'Could not load the reservations awaiting your approval.'));
        }
      });

  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [me.id]);

  const decide = async (reservation: Reservation, decision: 'approve' | 'decline') => {
    setBusy(reservation.id);
    setMessage(null);
    try {
      const after = await decideApproval(me, reservation.id, decision);
      setMessage(
        decision === 'approve'
          ? `Approved ${reservation.id}: it is now ${after.status.replace('_', ' ')}.`
          : `Declined ${reservation.id}: released, nothing charged.`,
      );
      await load();
      onDecided();
    } catch (caught) {
      if (!handleSessionEnded(caught)) {
        setMessage(errorText(caught, `Could not ${decision} ${reservation.id}.`));
      }
    } finally {
      setBusy(null);
    }
  };

  if (waiting.length === 0 && !message) {
    return null;
  }
  return (
    <section id="approvals" class="alert" aria-labelledby="approvals-heading">
      <h2 id="approvals-heading">Waiting for your approval</h2>
      {waiting.length > 0 && (
        <p>An API token asked to spend more than its budget's approval threshold. Nothing is charged until you approve.</p>
      )}
      <ul class="approvals-list">
        {waiting.map((r) => (
          <li key={r.id} class="approval" data-reservation-id={r.id}>
            <Link href={reservationHref(r.id)}>
              <code>{r.id}</code>
            </Link>{' '}
            {gpusLabel(r.gpu_count)}, <time dateTime={r.start}>{formatDateTime(r.start)}</time> for {r.hours} h,{' '}
            <strong>{money(r.price?.total)}</strong>
            {r.hold_expires_at && (
              <span class="muted">
                {' '}
                (held until <time dateTime={r.hold_expires_at}>{formatDateTime(r.hold_expires_at)}</time>)
              </span>
            )}{' '}
            <button type="button" class="btn btn--primary approve" disabled={busy !== null} onClick={() => void decide(r, 'approve')}>
              Approve
            </button>{' '}
            <button type="button" class="btn decline" disabled={busy !== null} onClick={() => void decide(r, 'decline')}>
              Decline
            </button>
          </li>
        ))}
      </ul>
      {message && (
        <p id="approvals-message" role="status">
          {message}
        </p>
      )}
    </section>
  );
}
