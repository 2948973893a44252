import type { JSX } from 'preact';
import { Field } from '../../fields';
import { formatDateTime } from '../../format';
import { formatCount, gpusLabel, money, type OfferImage, type Quote } from '../../offers';
import { cardLabel, type PaymentMethod } from '../../payments';
import { ImagePicker } from './ImagePicker';
import { ReserveProblemAlert } from './ReserveProblemAlert';
import type { useReserve } from './useReserve';

interface ReserveFormProps {
  quote: Quote;
  card: PaymentMethod | null;
  lookingForCard: boolean;
  reserve: ReturnType<typeof useReserve>;
  onTryWindow: (window: { start: string; end: string }) => void;
  /** The offer's image templates on its host: cached, runnable, ready times. */
  images?: OfferImage[];
}

/** "Hold these GPUs": the SSH key, then hold and pay at checkout, or pay with the saved card. */
export function ReserveForm({ quote, card, lookingForCard, reserve, onTryWindow, images = [] }: ReserveFormProps) {
  const { problem, busy, chosenPayment } = reserve;

  const onSubmit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    void reserve.reserve(chosenPayment.current === 'saved_card' && card ? 'saved_card' : 'checkout');
  };

  return (
    <form
      id="reserve-form"
      class="form reserve-form"
      noValidate
      aria-labelledby="reserve-form-heading"
      aria-busy={busy ? 'true' : undefined}
      onSubmit={onSubmit}
    >
      <h3 id="reserve-form-heading" class="subheading">
        Hold these GPUs
      </h3>
      <p id="reserve-summary">
        {gpusLabel(quote.gpu_count)} × {formatCount(quote.hours)} h, {formatDateTime(quote.start)} to{' '}
        {formatDateTime(quote.end)}, for <strong>{money(quote.total)}</strong> in total (itemized above). The
        cancellation policy above applies.
      </p>
      {problem && <ReserveProblemAlert quote={quote} problem={problem} alertRef={reserve.alertRef} onTryWindow={onTryWindow} />}
      <Field
        id="reserve-ssh-key"
        label="SSH public key"
        hint={
          <>
            One line from your <code>.pub</code> file (ed25519, ECDSA or RSA of at least 2048 bits); it lets you log in
            to the machine. This browser remembers the last key you used.
          </>
        }
        error={problem?.keyError}
      >
        {(control) => (
          <textarea
            {...control}
            ref={reserve.keyRef}
            name="ssh_public_key"
            rows={4}
            required
            placeholder="ssh-ed25519 AAAA… you@laptop"
            spellcheck={false}
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            value={reserve.sshKey}
            onInput={(event) => reserve.setSshKey(event.currentTarget.value)}
            onChange={(event) => reserve.setSshKey(event.currentTarget.value)}
          />
        )}
      </Field>
      <ImagePicker choice={reserve.image} onChange={reserve.setImage} onHost={images} />
      <p id="reserve-payment-note" class="note">
        {card
          ? `Pay now with your saved card (${cardLabel(card)}), or hold the GPUs and pay by card at checkout before the hold expires.`
          : 'You pay by card at checkout next; the GPUs stay held for you until the hold expires.'}
      </p>
      <div class="reserve-actions">
        {card && (
          <button
            id="pay-saved-card"
            type="submit"
            aria-describedby="reserve-payment-note quote-cancellation-policy"
            class="btn btn--primary"
            aria-disabled={busy ? 'true' : undefined}
            aria-busy={busy && chosenPayment.current === 'saved_card' ? 'true' : undefined}
            onClick={() => {
              chosenPayment.current = 'saved_card';
            }}
          >
            {busy && chosenPayment.current === 'saved_card' ? 'Paying…' : `Pay with saved card (${cardLabel(card)})`}
          </button>
        )}
        <button
          id="confirm-reserve"
          type="submit"
          aria-describedby="reserve-payment-note quote-cancellation-policy"
          class={card ? 'btn' : 'btn btn--primary'}
          aria-disabled={busy ? 'true' : undefined}
          aria-busy={busy && chosenPayment.current === 'checkout' ? 'true' : undefined}
          onClick={() => {
            chosenPayment.current = 'checkout';
          }}
        >
          {busy && chosenPayment.current === 'checkout' ? 'Holding…' : card ? 'Hold and pay at checkout' : 'Hold these GPUs'}
        </button>
      </div>
      {lookingForCard && (
        <p class="hint" role="status">
          Looking for a saved card…
        </p>
      )}
    </form>
  );
}
