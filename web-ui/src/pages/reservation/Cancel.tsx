/**
 * "Cancel": a button that opens an inline confirm step showing what cancelling now refunds
 * (`cancellation.refund`), what it costs (`cancellation.fee`) and the policy, then
 * `POST /reservations/{id}/cancel`.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useMounted } from '../../hooks';
import { money, type Money } from '../../offers';
import { ProblemAlert, problemFrom, type ShownProblem } from '../../problem';
import { cancelReservation, handleSessionEnded, type Reservation } from '../../reservations';
import type { Me } from '../../session';
import './cancel.css';

/** Whether the reservation may be cancelled now (older gateways: only unpaid holds). */
export function canCancel(r: Reservation): boolean {
  if (r.cancellation && typeof r.cancellation.allowed === 'boolean') {
    return r.cancellation.allowed;
  }
  return r.status === 'pending_payment';
}

function zero(r: Reservation): Money | null {
  return r.price?.total?.currency ? { amount: 0, currency: r.price.total.currency } : null;
}

export interface CancelControlProps {
  reservation: Reservation;
  me: Me;
  /** The alert to show here (the page shows one at a time). */
  problem: ShownProblem | null;
  onProblem: (problem: ShownProblem | null) => void;
  /** After a successful cancel, with the answer (the cancelled reservation). */
  onCancelled: (updated: Reservation | null, refund: Money | null) => void;
  /** Re-reads the reservation, so the refund shown is current. */
  onRefresh: () => void;
  announce: (text: string) => void;
}

export function CancelControl({ reservation: r, me, problem, onProblem, onCancelled, onRefresh, announce }: CancelControlProps) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const mounted = useMounted();
  const hold = r.status === 'pending_payment';
  const what = hold ? 'hold' : 'reservation';

  useEffect(() => {
    if (confirming) {
      confirmRef.current?.focus();
    }
  }, [confirming]);

  useEffect(() => {
    if (problem) {
      alertRef.current?.focus();
    }
  }, [problem]);

  const open = () => {
    onProblem(null);
    setConfirming(true);
    announce(`Press “Confirm cancel” to cancel the ${what}, or “Keep ${what}” to keep it.`);
    onRefresh();
  };

  const keep = () => {
    setConfirming(false);
    announce(`The ${what} is kept.`);
    window.setTimeout(() => triggerRef.current?.focus(), 0);
  };

  const confirm = async () => {
    if (busy) {
      return;
    }
    const refund = r.cancellation?.refund ?? null;
    setBusy(true);
    onProblem(null);
    try {
      const updated = await cancelReservation(me, r.id);
      // the live update may already have unmounted this control: the page still needs the answer
      if (mounted.current) {
        setConfirming(false);
      }
      onCancelled(updated && typeof updated.id === 'string' ? updated : null, refund);
    } catch (caught) {
      if (!mounted.current || handleSessionEnded(caught)) {
        return;
      }
      setConfirming(false);
      onProblem(problemFrom(caught, 'request failed', `Could not cancel the ${what}`));
      // It may have started, expired or been paid meanwhile.
      onRefresh();
    } finally {
      if (mounted.current) {
        setBusy(false);
      }
    }
  };

  const onKeyDown = (event: JSX.TargetedKeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && confirming && !busy) {
      event.preventDefault();
      keep();
    }
  };

  const refund = r.cancellation?.refund ?? zero(r);
  const fee = r.cancellation?.fee ?? zero(r);
  const policy = r.cancellation?.policy || r.price?.cancellation_policy || '';

  return (
    <div class="cancel-control">
      {problem && <ProblemAlert problem={problem} alertRef={alertRef} />}
      {!confirming ? (
        <div class="form-actions">
          {/* `#cancel-reservation` is the older id of this two-step control; kept for existing tests. */}
          <span id="cancel-reservation" class="id-alias">
            <button
              id="cancel"
              ref={triggerRef}
              type="button"
              class="btn btn--danger"
              aria-expanded="false"
              aria-controls="cancel-panel"
              onClick={open}
            >
              {hold ? 'Cancel hold' : 'Cancel reservation'}
            </button>
          </span>
        </div>
      ) : (
        <div
          id="cancel-panel"
          class="panel cancel-panel"
          role="group"
          aria-labelledby="cancel-panel-heading"
          aria-busy={busy ? 'true' : undefined}
          onKeyDown={onKeyDown}
        >
          <h3 id="cancel-panel-heading" class="subheading">
            {hold ? 'Cancel this hold?' : 'Cancel this reservation?'}
          </h3>
          <dl id="cancel-summary" class="details cancel-summary">
            <div>
              <dt>Refund to your card</dt>
              <dd id="cancel-refund" class="cancel-summary__amount">
                {money(refund)}
              </dd>
            </div>
            <div>
              <dt>Cancellation fee</dt>
              <dd id="cancel-fee" class="cancel-summary__amount">
                {money(fee)}
              </dd>
            </div>
          </dl>
          {hold && <p class="hint">Nothing has been charged for this hold; its GPUs are released at once.</p>}
          {policy && (
            <p id="cancel-policy" class="quote-policy">
              {policy}
            </p>
          )}
          <div class="form-actions">
            <span id="cancel-reservation" class="id-alias">
              <button
                id="cancel-confirm"
                ref={confirmRef}
                type="button"
                class="btn btn--danger cancel-reservation--confirm"
                aria-describedby="cancel-summary"
                aria-busy={busy ? 'true' : undefined}
                disabled={busy}
                onClick={() => void confirm()}
              >
                {busy ? 'Cancelling…' : 'Confirm cancel'}
              </button>
            </span>
            {!busy && (
              <button id="keep-reservation" type="button" class="btn" onClick={keep}>
                Keep {what}
              </button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
