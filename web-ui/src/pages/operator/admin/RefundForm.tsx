/** A manual refund or credit of one reservation: amount (at most what is left), kind and the reason the renter sees. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { currencyFractionDigits, formatMoney } from '../../../format';
import { useIdempotentSubmit } from '../../../idempotent-submit';
import { errorText } from '../../../offers';
import type { Me } from '../../../session';
import { refundManually, type ManualRefund, type OperatorReservation } from './admin-api';

export function RefundForm({ me, reservation, onCancel, onDone }: {
  me: Me;
  reservation: OperatorReservation;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const { currency, amount: left } = reservation.refundable;
  const digits = currencyFractionDigits(currency);
  const [amount, setAmount] = useState('');
  const [kind, setKind] = useState<'refund' | 'credit'>('refund');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { busy, submit } = useIdempotentSubmit<ManualRefund>();
  const minor = Math.round(Number(amount) * 10 ** digits);
  const valid = amount !== '' && Number.isFinite(minor) && minor > 0 && minor <= left && reason.trim().length >= 3;
  const id = reservation.id;
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const body = { amount: minor, currency, kind, reason: reason.trim() };
  return (
    <form
      id={`refund-form-${id}`}
      class="admin-confirm"
      aria-label={`Refund or credit ${id}`}
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        void submit({
          body,
          send: (key) => refundManually(me, id, body, key),
          onDone: (done) => onDone(`${done.kind === 'credit' ? 'Credit' : 'Refund'} of ${formatMoney(done.amount.amount,
            done.amount.currency)} for ${id} sent to the card.`),
          onError: (caught) => setError(errorText(caught, 'The refund was not made.')),
        });
      }}
    >
      <p>
        Up to <strong>{formatMoney(left, currency)}</strong> of what was paid can still be given back to the renter's card.
      </p>
      <div class="field-row">
        <div class="field">
          <label for={`refund-amount-${id}`}>Amount ({currency.toUpperCase()})</label>
          <input ref={first} id={`refund-amount-${id}`} type="number" inputMode="decimal" required min={1 / 10 ** digits}
            max={left / 10 ** digits} step={1 / 10 ** digits} value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
        </div>
        <fieldset class="field">
          <legend>Kind</legend>
          <label>
            <input type="radio" name={`kind-${id}`} value="refund" checked={kind === 'refund'} onChange={() => setKind('refund')} />{' '}
            Refund (not delivered)
          </label>
          <label>
            <input type="radio" name={`kind-${id}`} value="credit" checked={kind === 'credit'} onChange={() => setKind('credit')} />{' '}
            Credit (goodwill)
          </label>
        </fieldset>
      </div>
      <div class="field">
        <label for={`refund-reason-${id}`}>Reason (the renter sees it)</label>
        <textarea id={`refund-reason-${id}`} required minLength={3} maxLength={500} rows={2} value={reason}
          onInput={(e) => setReason(e.currentTarget.value)} />
      </div>
      {error && (
        <p class="alert alert--error" role="alert">
          {error}
        </p>
      )}
      <div class="form-actions">
        <button type="submit" id={`refund-submit-${id}`} class="btn btn--primary" disabled={!valid || busy}
          aria-busy={busy ? 'true' : undefined}>
          {valid ? `Give back ${formatMoney(minor, currency)}` : 'Give back'}
        </button>
        <button type="button" class="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
