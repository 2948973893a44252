/**
 * Price suggestions for offers: the break-even price per GPU-hour at the host's current
 * utilization and costs, the price for a target margin, and the GPU model's reference market
 * prices. Reusable: give it `offerId` to show one offer (it fetches on its own), or render
 * `SuggestionSummary` with a suggestion already fetched.
 */
import { useEffect, useState } from 'preact/hooks';
import { formatMoney } from '../../../format';
import { getPriceSuggestions, percent, type Money, type PriceSuggestion, type Range } from './economics-api';
import './economics.css';

function price(money: Money | null | undefined): string {
  return money ? `${formatMoney(money.amount, money.currency)}/GPU-h` : '—';
}

/** One offer's suggestion as a short definition list; `compact` shows only the two suggested prices. */
export function SuggestionSummary({ suggestion, compact = false }: { suggestion: PriceSuggestion; compact?: boolean }) {
  const refs = suggestion.reference_prices;
  if (compact) {
    return (
      <div class="price-suggestion compact" data-offer={suggestion.offer_id}>
        <span class="break-even">Break-even {price(suggestion.break_even_price)}</span>
        <span class="target-price">
          {percent(suggestion.target_margin_bps)} margin {price(suggestion.target_price)}
        </span>
      </div>
    );
  }
  return (
    <div class="price-suggestion" data-offer={suggestion.offer_id}>
      <dl>
        <dt>List price</dt>
        <dd>{price(suggestion.list_price)}</dd>
        <dt>Break-even at {percent(suggestion.utilization_bps)} utilization</dt>
        <dd class="break-even">{price(suggestion.break_even_price)}</dd>
        <dt>For a {percent(suggestion.target_margin_bps)} margin</dt>
        <dd class="target-price">{price(suggestion.target_price)}</dd>
        {refs.hyperscaler && (
          <>
            <dt>Hyperscaler</dt>
            <dd title={refs.hyperscaler.source ?? undefined}>{price(refs.hyperscaler)}</dd>
          </>
        )}
        {refs.specialized && (
          <>
            <dt>Specialized clouds</dt>
            <dd title={refs.specialized.source ?? undefined}>{price(refs.specialized)}</dd>
          </>
        )}
      </dl>
      {suggestion.notes.map((note) => (
        <p class="muted suggestion-note" key={note}>
          {note}
        </p>
      ))}
    </div>
  );
}

export interface PriceSuggestionsProps {
  /** Only this offer's suggestion (all offers when absent). */
  offerId?: string;
  /** The range the utilization and costs come from (the last 30 days when absent). */
  range?: Range | null;
  /** Target margin in basis points (3000 = 30 %); the viewer can change it. */
  targetMarginBps?: number;
}

/** Fetches and shows the suggestions, with a field for the target margin. */
export function PriceSuggestions({ offerId, range = null, targetMarginBps = 3000 }: PriceSuggestionsProps) {
  const [margin, setMargin] = useState(targetMarginBps);
  const [suggestions, setSuggestions] = useState<PriceSuggestion[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getPriceSuggestions(range, margin, controller.signal)
      .then((page) => setSuggestions(page.data.filter((s) => !offerId || s.offer_id === offerId)))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) {
          setError(e instanceof Error ? e.message : String(e));
        }
      });
    return () => controller.abort();
  }, [offerId, range?.from, range?.to, margin]);

  const fieldId = `target-margin-${offerId ?? 'all'}`;
  return (
    <section class="price-suggestions" aria-label="Price suggestions">
      <label for={fieldId}>Target margin (%)</label>
      <input
        id={fieldId}
        type="number"
        min={0}
        max={99}
        step={1}
        value={margin / 100}
        onChange={(e) => setMargin(Math.round(Number((e.target as HTMLInputElement).value) * 100))}
      />
      {error && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
      {suggestions === null && !error && <p class="muted" role="status">Loading suggestions…</p>}
      <div class="price-suggestion-list">
        {suggestions?.map((s) => (
          <div key={s.offer_id}>
            {!offerId && <h4>{s.host_name}</h4>}
            <SuggestionSummary suggestion={s} />
          </div>
        ))}
      </div>
    </section>
  );
}

/** One fetch of the default suggestions shared by every row of a page (refetched after 10 s). */
let shared: { at: number; page: Promise<{ data: PriceSuggestion[] }> } | null = null;
function sharedSuggestions(): Promise<{ data: PriceSuggestion[] }> {
  if (!shared || Date.now() - shared.at > 10_000) {
    const page = getPriceSuggestions(null, 3000);
    page.catch(() => {
      shared = null;
    });
    shared = { at: Date.now(), page };
  }
  return shared.page;
}

/** One offer's break-even and 30 %-margin prices on a line (the Prices page's rows). */
export function OfferPriceSuggestion({ offerId }: { offerId: string }) {
  const [suggestion, setSuggestion] = useState<PriceSuggestion | null>(null);
  useEffect(() => {
    let gone = false;
    sharedSuggestions()
      .then((page) => !gone && setSuggestion(page.data.find((s) => s.offer_id === offerId) ?? null))
      .catch(() => !gone && setSuggestion(null));
    return () => {
      gone = true;
    };
  }, [offerId]);
  return suggestion ? <SuggestionSummary suggestion={suggestion} compact /> : null;
}
