/** "Set a price": for an offer or a model-and-site default, from now or from a chosen time. */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { Field } from '../../../fields';
import { currencyFractionDigits } from '../../../format';
import type { GpuModel } from '../../../offers';
import type { Site } from '../../../operator-hosts';
import type { Me } from '../../../session';
import { setDefaultPrice, setOfferPrice, toMinor, type PriceTarget } from './prices-api';

interface Props {
  me: Me;
  currency: string;
  offers: PriceTarget[];
  models: GpuModel[];
  sites: Site[];
  onSaved: (message: string) => void;
}

const DEFAULT_PREFIX = 'default:';

export function PriceForm({ me, currency, offers, models, sites, onSaved }: Props) {
  const [target, setTarget] = useState(offers[0]?.offer_id ?? DEFAULT_PREFIX);
  const [model, setModel] = useState(models[0]?.name ?? '');
  const [site, setSite] = useState(sites[0]?.id ?? '');
  const [amount, setAmount] = useState('');
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const minor = toMinor(amount, currencyFractionDigits(currency));
    if (minor === null || minor < 1) {
      setError(`Enter a price per GPU-hour in ${currency.toUpperCase()}, e.g. 1.99.`);
      return;
    }
    if (when === 'later' && !at) {
      setError('Choose when the price takes effect.');
      return;
    }
    const change = { amount: minor, currency, ...(when === 'later' ? { effective_at: new Date(at).toISOString() } : {}) };
    setBusy(true);
    setError(null);
    try {
      if (target === DEFAULT_PREFIX) {
        await setDefaultPrice(me, model, site, change);
      } else {
        await setOfferPrice(me, target, change);
      }
      setAmount('');
      onSaved(when === 'later' ? 'Price scheduled.' : 'Price set: new quotes use it now.');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form id="price-form" class="panel price-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <h3>Set a price</h3>
      {error && (
        <p id="price-error" class="problem" role="alert">
          {error}
        </p>
      )}
      <Field id="price-target" label="For">
        {(control) => (
          <select {...control} value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
            {offers.map((offer) => (
              <option key={offer.offer_id} value={offer.offer_id}>
                {offer.host_name} ({offer.gpu_model}, {offer.site_name})
              </option>
            ))}
            <option value={DEFAULT_PREFIX}>Default for a GPU model at a site…</option>
          </select>
        )}
      </Field>
      {target === DEFAULT_PREFIX && (
        <div class="price-form__default">
          <Field id="price-model" label="GPU model">
            {(control) => (
              <select {...control} value={model} onChange={(e) => setModel(e.currentTarget.value)}>
                {models.map((m) => <option key={m.name} value={m.name}>{m.name}</option>)}
              </select>
            )}
          </Field>
          <Field id="price-site" label="Site">
            {(control) => (
              <select {...control} value={site} onChange={(e) => setSite(e.currentTarget.value)}>
                {sites.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
              </select>
            )}
          </Field>
        </div>
      )}
      <Field id="price-amount" label={`Price per GPU-hour (${currency.toUpperCase()}, before discounts, fee and tax)`}>
        {(control) => (
          <input {...control} type="text" inputMode="decimal" required value={amount} placeholder="1.99"
            onInput={(e) => setAmount(e.currentTarget.value)} />
        )}
      </Field>
      <fieldset class="price-form__when">
        <legend>Takes effect</legend>
        <label>
          <input id="price-when-now" type="radio" name="price-when" checked={when === 'now'} onChange={() => setWhen('now')} />{' '}
          Now
        </label>
        <label>
          <input id="price-when-later" type="radio" name="price-when" checked={when === 'later'}
            onChange={() => setWhen('later')} />{' '}
          At
        </label>
        <label class="visually-hidden" for="price-at">Date and time (your time zone)</label>
        <input id="price-at" type="datetime-local" value={at} disabled={when !== 'later'}
          onInput={(e) => setAt(e.currentTarget.value)} />
      </fieldset>
      <p class="muted">Quotes already given and reservations already booked keep their price.</p>
      <button id="price-submit" type="submit" class="btn btn--primary" disabled={busy} aria-busy={busy ? 'true' : undefined}>
        Save price
      </button>
    </form>
  );
}
