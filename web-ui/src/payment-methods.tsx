/**
 * The account page's "Payment methods": the saved card (at most one), "Save a card" / "Replace
 * card" through Stripe Checkout in setup mode, and "Remove" with an inline confirm.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useMounted } from './hooks';
import { ApiError } from './api';
import {
  brandLabel,
  cardExpired,
  cardExpiry,
  cardLabel,
  deletePaymentMethod,
  safeCheckoutUrl,
  setupPaymentMethod,
  useSavedCard,
  type PaymentMethod,
} from './payments';
import { ProblemAlert, problemFrom, type ShownProblem } from './problem';
import { handleSessionEnded } from './reservations';
import { Link, navigate } from './router';
import type { Me } from './session';
import './payment-methods.css';

/** Where Stripe sends the browser back to after saving a card. */
const RETURN_TO = '/account';

/** After returning from the card setup, re-read the card at these delays (the webhook may lag). */
const SETUP_POLL_DELAYS_MS = [1000, 2000, 3000, 5000, 8000];

export function PaymentMethodsSection({ me }: { me: Me }) {
  const saved = useSavedCard(true);
  const [problem, setProblem] = useState<ShownProblem | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState<'save' | 'remove' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [settingUp, setSettingUp] = useState(() => new URLSearchParams(window.location.search).has('setup'));
  const headingRef = useRef<HTMLHeadingElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const mounted = useMounted();
  const card = saved.card;

  useEffect(() => {
    if (saved.error && !handleSessionEnded(saved.error)) {
      setProblem(problemFrom(saved.error, 'request failed', 'Could not load your saved card'));
    }
  }, [saved.error]);

  useEffect(() => {
    if (problem) {
      alertRef.current?.focus();
    }
  }, [problem]);

  useEffect(() => {
    if (confirming) {
      confirmRef.current?.focus();
    }
  }, [confirming]);

  // Back from Stripe (`?setup=…`): the card is saved once Stripe's webhook arrives; look again a few times.
  // (Not stopping at the first card seen: when replacing, that may still be the old one.)
  useEffect(() => {
    if (!settingUp) {
      return;
    }
    let at = 0;
    const timers = SETUP_POLL_DELAYS_MS.map((delay) => {
      at += delay;
      return window.setTimeout(() => void saved.reload().catch(() => undefined), at);
    });
    const done = window.setTimeout(() => {
      if (mounted.current) {
        finishSetup();
      }
    }, at + 500);
    return () => {
      timers.forEach((timer) => window.clearTimeout(timer));
      window.clearTimeout(done);
    };
  }, [settingUp]);

  useEffect(() => {
    if (settingUp && card) {
      setStatus(`Card saved: ${cardLabel(card)}.`);
    }
  }, [card?.id]);

  function finishSetup() {
    setSettingUp(false);
    const params = new URLSearchParams(window.location.search);
    if (params.has('setup')) {
      params.delete('setup');
      const qs = params.toString();
      navigate(`${window.location.pathname}${qs ? `?${qs}` : ''}${window.location.hash}`, { replace: true });
    }
  }

  const onSave = async () => {
    if (busy) {
      return;
    }
    setBusy('save');
    setProblem(null);
    try {
      const session = await setupPaymentMethod(me, RETURN_TO);
      const url = safeCheckoutUrl(session?.checkout_url);
      if (!url) {
        throw new Error('The gateway did not say where to enter the card.');
      }
      setStatus('Opening the secure card form…');
      window.location.assign(url);
    } catch (caught) {
      if (!mounted.current || handleSessionEnded(caught)) {
        return;
      }
      setBusy(null);
      setProblem(problemFrom(caught, 'request failed', 'Could not start saving a card'));
    }
  };

  const onRemove = async (target: PaymentMethod) => {
    if (busy) {
      return;
    }
    setBusy('remove');
    setProblem(null);
    try {
      await deletePaymentMethod(me, target.id);
    } catch (caught) {
      if (!mounted.current || handleSessionEnded(caught)) {
        return;
      }
      // Already gone (404): the reload below catches up.
      if (!(caught instanceof ApiError && caught.status === 404)) {
        setBusy(null);
        setConfirming(false);
        setProblem(problemFrom(caught, 'request failed', `Could not remove ${cardLabel(target)}`));
        return;
      }
    }
    if (!mounted.current) {
      return;
    }
    setConfirming(false);
    setBusy(null);
    setStatus(`${cardLabel(target)} removed.`);
    // The card (and its focused button) is gone: continue from the section heading.
    headingRef.current?.focus();
    void saved.reload().catch(() => undefined);
  };

  const keep = () => {
    setConfirming(false);
    setStatus('The card is kept.');
    window.setTimeout(() => removeRef.current?.focus(), 0);
  };

  const onPanelKey = (event: JSX.TargetedKeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && confirming && busy === null) {
      event.preventDefault();
      keep();
    }
  };

  return (
    <section id="payment-methods" class="section" aria-labelledby="payment-methods-heading">
      <h2 id="payment-methods-heading" ref={headingRef} tabIndex={-1}>
        Payment methods
      </h2>
      <p>
        A saved card pays reservations and extensions at once, without the checkout page. Card details are kept by
        Stripe, not by us. <Link id="payments-link" href="/payments">See your payments, receipts and refunds</Link>.
      </p>
      <p id="payment-methods-status" class="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {problem && <ProblemAlert problem={problem} alertRef={alertRef} />}
      {settingUp && (
        <p id="card-setup-status" class="notice" role="status">
          Saving your card… this updates as soon as Stripe confirms it.
        </p>
      )}
      {saved.loading ? (
        <p class="muted">Loading your saved card…</p>
      ) : card ? (
        <SavedCard card={card} />
      ) : (
        !saved.error && (
          <p id="no-saved-card" class="empty-state">
            No card saved. You pay each reservation at checkout.
          </p>
        )
      )}
      {confirming && card ? (
        <div
          id="remove-card-panel"
          class="panel confirm-panel"
          role="group"
          aria-labelledby="remove-card-heading"
          onKeyDown={onPanelKey}
        >
          <h3 id="remove-card-heading" class="subheading">
            Remove {cardLabel(card)}?
          </h3>
          <p id="remove-card-note">
            Payments already made are not affected. Until you save another card, you pay at checkout.
          </p>
          <div class="form-actions">
            <button
              id="remove-card-confirm"
              ref={confirmRef}
              type="button"
              class="btn btn--danger cancel-reservation--confirm"
              aria-describedby="remove-card-note"
              disabled={busy === 'remove'}
              aria-busy={busy === 'remove' ? 'true' : undefined}
              onClick={() => void onRemove(card)}
            >
              {busy === 'remove' ? 'Removing…' : 'Confirm remove'}
            </button>
            {busy !== 'remove' && (
              <button id="remove-card-keep" type="button" class="btn" onClick={keep}>
                Keep card
              </button>
            )}
          </div>
        </div>
      ) : (
        <div class="button-row">
          <button
            id="save-card"
            type="button"
            class="btn btn--primary"
            aria-disabled={busy ? 'true' : undefined}
            aria-busy={busy === 'save' ? 'true' : undefined}
            onClick={() => void onSave()}
          >
            {busy === 'save' ? 'Opening…' : card ? 'Replace card' : 'Save a card'}
          </button>
          {card && (
            <button
              id="remove-card"
              ref={removeRef}
              type="button"
              class="btn btn--danger"
              aria-expanded="false"
              aria-controls="remove-card-panel"
              aria-label={`Remove ${cardLabel(card)}`}
              onClick={() => {
                setProblem(null);
                setConfirming(true);
              }}
            >
              Remove
            </button>
          )}
        </div>
      )}
    </section>
  );
}

function SavedCard({ card }: { card: PaymentMethod }) {
  const expiry = cardExpiry(card);
  const expired = cardExpired(card);
  return (
    <div id="saved-card" class="saved-card panel" data-payment-method-id={card.id}>
      <p class="saved-card__label">
        <span class="saved-card__brand">{brandLabel(card.brand)}</span>{' '}
        <span class="saved-card__number" aria-label={`ending in ${card.last4}`}>
          •••• <span id="saved-card-last4">{card.last4}</span>
        </span>
      </p>
      {expiry && (
        <p class="saved-card__expiry">
          Expires <span id="saved-card-expiry">{expiry}</span>
          {expired && <span class="badge">expired</span>}
        </p>
      )}
    </div>
  );
}
