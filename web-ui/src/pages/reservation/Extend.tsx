/**
 * "Extend": more hours on the same GPUs right after the end. The price is shown first
 * (`POST /quotes` for the window starting at the current end), then
 * `POST /reservations/{id}/extend` charges it at checkout or on the saved card.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { NumberField } from '../../fields';
import { useFocusOnNext } from '../../hooks';
import { useIdempotentSubmit } from '../../idempotent-submit';
import { formatDateTime } from '../../format';
import {
  createQuote,
  formatCount,
  gpusLabel,
  MAX_HOURS,
  MIN_HOURS,
  money,
  parseHours,
  type Quote,
} from '../../offers';
import { cardLabel, paymentDeclined, safeCheckoutUrl, useSavedCard } from '../../payments';
import { ItemsTable } from '../../price-table';
import { ProblemAlert, problemFrom, type ShownProblem } from '../../problem';
import {
  extendReservation,
  handleSessionEnded,
  type PaymentChoice,
  type Reservation,
  type ReservationExtension,
} from '../../reservations';
import type { Me } from '../../session';
import './extend.css';

/** Waits this long after typing before asking for a price. */
const QUOTE_DELAY_MS = 400;

/** The extension the answer added: one not there before, else the newest awaiting payment. */
export function newPendingExtension(before: Reservation, after: Reservation): ReservationExtension | null {
  const known = new Set((before.extensions ?? []).map((extension) => extension.id));
  const pending = (after.extensions ?? []).filter(
    (extension) => extension.status === 'pending_payment' && safeCheckoutUrl(extension.checkout_url),
  );
  return pending.filter((extension) => !known.has(extension.id)).at(-1) ?? pending.at(-1) ?? null;
}

export interface ExtendPanelProps {
  reservation: Reservation;
  me: Me;
  problem: ShownProblem | null;
  onProblem: (problem: ShownProblem | null) => void;
  onExtended: (updated: Reservation) => void;
  /** Re-reads the reservation (e.g. after a refused charge). */
  onRefresh: () => void;
  announce: (text: string) => void;
}

type QuoteState =
  | { kind: 'idle' }
  | { kind: 'loading'; hours: number }
  | { kind: 'ready'; hours: number; quote: Quote }
  | { kind: 'failed'; hours: number };

export function ExtendPanel({ reservation: r, me, problem, onProblem, onExtended, onRefresh, announce }: ExtendPanelProps) {
  const saved = useSavedCard(true);
  const [hours, setHours] = useState('1');
  const [payment, setPayment] = useState<PaymentChoice>('checkout');
  const [quote, setQuote] = useState<QuoteState>({ kind: 'idle' });
  const [done, setDone] = useState<string | null>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const { busy, submit, mounted } = useIdempotentSubmit<Reservation>();
  const quoteSeq = useRef(0);

  const parsed = parseHours(hours);
  const card = saved.card;

  useEffect(() => {
    if (saved.error) {
      handleSessionEnded(saved.error);
    }
  }, [saved.error]);

  // Without a saved card only checkout is offered.
  useEffect(() => {
    if (!card && payment === 'saved_card') {
      setPayment('checkout');
    }
  }, [card]);

  /** Set when a submit failed: its alert takes focus (a failed price while typing does not). */
  const focusAlert = useFocusOnNext(problem, alertRef);

  // Price the hours after the current end whenever they (or the end) change.
  useEffect(() => {
    const seq = ++quoteSeq.current;
    if (parsed === null) {
      setQuote({ kind: 'idle' });
      return;
    }
    setQuote({ kind: 'loading', hours: parsed });
    const timer = window.setTimeout(() => {
      createQuote({ offer_id: r.offer_id, gpu_count: r.gpu_count, start: r.end, hours: parsed })
        .then((next) => {
          if (mounted.current && seq === quoteSeq.current) {
            setQuote({ kind: 'ready', hours: parsed, quote: next });
          }
        })
        .catch((caught) => {
          if (!mounted.current || seq !== quoteSeq.current || handleSessionEnded(caught)) {
            return;
          }
          setQuote({ kind: 'failed', hours: parsed });
          onProblem(problemFrom(caught, 'request failed', 'Could not price the extension'));
        });
    }, QUOTE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [parsed, r.end, r.offer_id, r.gpu_count]);

  const priced = quote.kind === 'ready' && quote.hours === parsed ? quote.quote : null;

  const onSubmit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || parsed === null || !priced) {
      return;
    }
    const request = { hours: parsed, payment: payment === 'saved_card' && card ? payment : 'checkout' } as const;
    setDone(null);
    onProblem(null);
    void submit({
      body: request,
      send: (idempotencyKey) => extendReservation(me, r.id, request, idempotencyKey),
      onDone: (updated) => {
        if (!mounted.current) {
          return;
        }
        if (!updated || typeof updated.id !== 'string') {
          throw new Error('Unexpected response for the extension.');
        }
        if (request.payment === 'checkout') {
          const pending = newPendingExtension(r, updated);
          const url = safeCheckoutUrl(pending?.checkout_url);
          if (url) {
            announce('Opening checkout to pay for the extension…');
            window.location.assign(url);
            return;
          }
          onExtended(updated);
          setDone('The extra hours are held for you. Pay for them from the table of extensions below.');
        } else {
          onExtended(updated);
          setDone(
            `Extended by ${formatCount(parsed)} h and charged to ${card ? cardLabel(card) : 'your saved card'}. ` +
              `The reservation now ends at ${formatDateTime(updated.end)}.`,
          );
        }
        announce('Reservation extended.');
      },
      onError: (caught) => {
        const declined = paymentDeclined(caught);
        focusAlert.current = true;
        onProblem(
          problemFrom(caught, 'request failed', declined ? 'Your saved card was not charged' : 'Could not extend'),
        );
        onRefresh();
      },
    });
  };

  const hoursInvalid = hours.trim() !== '' && parsed === null;

  return (
    <section id="extend" class="section" aria-labelledby="extend-heading">
      <h2 id="extend-heading">Extend</h2>
      <form
        id="extend-form"
        class="form panel extend-form"
        noValidate
        aria-labelledby="extend-heading"
        aria-busy={busy ? 'true' : undefined}
        onSubmit={(event) => void onSubmit(event)}
      >
        <p class="hint">
          Keep the same {gpusLabel(r.gpu_count)} for more hours right after {formatDateTime(r.end)}. The end moves once
          the extra hours are paid.
        </p>
        {problem && <ProblemAlert problem={problem} alertRef={alertRef} />}
        {done && (
          <p id="extend-result" class="notice" role="status">
            {done}
          </p>
        )}
        <NumberField
          id="extend-hours"
          label="Extra hours"
          name="hours"
          min={MIN_HOURS}
          max={MAX_HOURS}
          required
          value={hours}
          hint={`${MIN_HOURS} to ${MAX_HOURS}.`}
          error={hoursInvalid ? `Enter the hours as a whole number from ${MIN_HOURS} to ${MAX_HOURS}.` : null}
          onInput={(value) => {
            setHours(value);
            setDone(null);
            if (problem) {
              onProblem(null);
            }
          }}
        />
        <fieldset class="field radio-group">
          <legend>Payment</legend>
          <div class="radio">
            <input
              id="extend-pay-checkout"
              type="radio"
              name="extend-payment"
              value="checkout"
              checked={payment === 'checkout'}
              onChange={() => setPayment('checkout')}
            />
            <label for="extend-pay-checkout">Pay by card at checkout</label>
          </div>
          {card && (
            <div class="radio">
              <input
                id="extend-pay-saved-card"
                type="radio"
                name="extend-payment"
                value="saved_card"
                checked={payment === 'saved_card'}
                onChange={() => setPayment('saved_card')}
              />
              <label for="extend-pay-saved-card">Saved card ({cardLabel(card)}), charged at once</label>
            </div>
          )}
          {saved.loading && <p class="hint">Looking for a saved card…</p>}
        </fieldset>
        <div id="extend-price" class="extend-price" aria-live="polite" aria-busy={quote.kind === 'loading' ? 'true' : undefined}>
          {priced ? (
            <>
              <p>
                {formatCount(priced.hours)} more {priced.hours === 1 ? 'hour' : 'hours'}, {formatDateTime(priced.start)}{' '}
                to <strong id="extend-new-end">{formatDateTime(priced.end)}</strong>, for{' '}
                <strong id="extend-total">{money(priced.total)}</strong>.
              </p>
              <details class="extend-price__items">
                <summary>Price, item by item</summary>
                <ItemsTable
                  id="extend-price-items"
                  items={priced.items}
                  total={priced.total}
                  caption="Price of the extra hours, item by item"
                />
              </details>
            </>
          ) : quote.kind === 'loading' ? (
            <p class="muted">Getting the price…</p>
          ) : quote.kind === 'failed' ? (
            <p class="muted">No price for these hours; see the message above.</p>
          ) : (
            <p class="muted">Enter the hours to see the price.</p>
          )}
        </div>
        <button
          id="extend-submit"
          type="submit"
          class="btn btn--primary"
          disabled={!priced}
          aria-disabled={busy ? 'true' : undefined}
          aria-busy={busy ? 'true' : undefined}
        >
          {busy
            ? 'Extending…'
            : priced
              ? payment === 'saved_card' && card
                ? `Extend and pay ${money(priced.total)}`
                : `Extend and pay ${money(priced.total)} at checkout`
              : 'Extend'}
        </button>
      </form>
    </section>
  );
}
