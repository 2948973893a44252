/** The terms of sale every new quote is priced with: duration discounts, platform fee, tax, cancellation fee. */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { Field } from '../../../fields';
import { formatDateTime } from '../../../format';
import type { Me } from '../../../session';
import { percent, putSettings, type OperatorSettings } from './prices-api';

/** Percent text ("2.5") to basis points (250), or null. */
function toBps(text: string): number | null {
  const value = Number(text.trim().replace(',', '.'));
  return text.trim() === '' || !Number.isFinite(value) ? null : Math.round(value * 100);
}

const asPercent = (bps: number) => String(bps / 100);

/** "24:5, 168:15" (hours:percent) from and to the discounts. */
function discountsText(settings: OperatorSettings): string {
  return settings.duration_discounts.map((d) => `${d.min_hours}:${asPercent(d.discount_bps)}`).join(', ');
}

function parseDiscounts(text: string): { min_hours: number; discount_bps: number }[] | null {
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  const discounts = parts.map((part) => {
    const [hours, pct] = part.split(':');
    const bps = toBps(pct ?? '');
    return /^\d+$/.test(hours?.trim() ?? '') && bps !== null ? { min_hours: Number(hours), discount_bps: bps } : null;
  });
  return discounts.every((d) => d !== null) ? (discounts as { min_hours: number; discount_bps: number }[]) : null;
}

export function SettingsForm({ me, settings, onSaved }: { me: Me; settings: OperatorSettings; onSaved: (s: OperatorSettings) => void }) {
  const [discounts, setDiscounts] = useState(discountsText(settings));
  const [fee, setFee] = useState(asPercent(settings.platform_fee_bps));
  const [tax, setTax] = useState(asPercent(settings.tax_bps));
  const [cancellation, setCancellation] = useState(asPercent(settings.cancellation_fee_bps));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseDiscounts(discounts);
    const [feeBps, taxBps, cancellationBps] = [toBps(fee), toBps(tax), toBps(cancellation)];
    if (parsed === null || feeBps === null || taxBps === null || cancellationBps === null) {
      setError('Use numbers: percentages like 3 or 2.5, discounts like 24:5, 168:15 (hours:percent).');
      return;
    }
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const next = await putSettings(me, {
        duration_discounts: parsed, platform_fee_bps: feeBps, tax_bps: taxBps, cancellation_fee_bps: cancellationBps,
      });
      setSaved(true);
      onSaved(next);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form id="settings-form" class="panel settings-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <h3>Terms of sale</h3>
      <p class="muted">
        Used by every new quote on every node. Now: platform fee {percent(settings.platform_fee_bps)}, tax{' '}
        {percent(settings.tax_bps)}, cancellation fee {percent(settings.cancellation_fee_bps)}
        {settings.updated_by === 'config'
          ? ' (the configured values)'
          : settings.updated_at ? `; changed ${formatDateTime(settings.updated_at)} by ${settings.updated_by}` : ''}.
      </p>
      {error && <p id="settings-error" class="problem" role="alert">{error}</p>}
      {saved && <p id="settings-saved" role="status">Saved: new quotes use these terms.</p>}
      <Field id="settings-discounts" label="Duration discounts" hint="hours:percent, e.g. 24:5, 168:15 (the largest reached applies)">
        {(control) => <input {...control} type="text" value={discounts} onInput={(e) => setDiscounts(e.currentTarget.value)} />}
      </Field>
      <Field id="settings-fee" label="Platform fee (%)" hint="On the discounted price; 0 to 50">
        {(control) => <input {...control} type="text" inputMode="decimal" value={fee} onInput={(e) => setFee(e.currentTarget.value)} />}
      </Field>
      <Field id="settings-tax" label="Tax (%)" hint="On the discounted price plus fee; 0 to 50">
        {(control) => <input {...control} type="text" inputMode="decimal" value={tax} onInput={(e) => setTax(e.currentTarget.value)} />}
      </Field>
      <Field id="settings-cancellation" label="Cancellation fee (%)" hint="Of the unused hours refunded after the start; 0 to 100">
        {(control) => (
          <input {...control} type="text" inputMode="decimal" value={cancellation}
            onInput={(e) => setCancellation(e.currentTarget.value)} />
        )}
      </Field>
      <p class="muted">Quotes already given and reservations already booked keep the terms they were priced with.</p>
      <button id="settings-submit" type="submit" class="btn btn--primary" disabled={busy} aria-busy={busy ? 'true' : undefined}>
        Save terms
      </button>
    </form>
  );
}
