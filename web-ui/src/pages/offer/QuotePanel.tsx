import { formatRemaining, useNow } from '../../clock';
import { formatDateTime } from '../../format';
import { formatCount, gpusLabel, money, type OfferImage, type Quote } from '../../offers';
import { ItemsTable } from '../../price-table';
import { ReserveArea } from './ReserveArea';

interface QuotePanelProps {
  quote: Quote;
  headingRef: { current: HTMLHeadingElement | null };
  /** Called when the visitor follows a 409's "Try the next free window" link. */
  onTryWindow: (window: { start: string; end: string }) => void;
  /** The offer's image templates on its host (cached, runnable, ready times) for the reserve form. */
  images?: OfferImage[];
}

export function QuotePanel({ quote, headingRef, onTryWindow, images }: QuotePanelProps) {
  const expiresAt = new Date(quote.expires_at).getTime();
  const validExpiry = !Number.isNaN(expiresAt);
  const now = useNow(validExpiry && expiresAt > Date.now());
  const expired = validExpiry && expiresAt <= now;
  const remaining = expiresAt - now;

  return (
    <section
      id="quote"
      class={`panel quote-panel${expired ? ' quote-panel--expired' : ''}`}
      aria-labelledby="quote-heading"
      data-quote-id={quote.id}
    >
      <h2 id="quote-heading" ref={headingRef} tabIndex={-1}>
        Your quote
      </h2>
      <p id="quote-window">
        {gpusLabel(quote.gpu_count)} × {formatCount(quote.hours)} h, {formatDateTime(quote.start)} to{' '}
        {formatDateTime(quote.end)}
      </p>
      <ItemsTable
        id="quote-items"
        items={quote.items}
        total={quote.total}
        totalId="quote-total"
        caption="Quoted price, item by item"
      />
      <p class="hint">{money(quote.price_per_gpu_hour)} per GPU-hour before discounts, fees and taxes.</p>
      <p id="quote-expiry" class={expired ? 'quote-expiry quote-expiry--expired' : 'quote-expiry'}>
        {expired ? (
          <>
            This quote expired at {formatDateTime(quote.expires_at)}. Get a new quote to see current prices.
          </>
        ) : (
          <>
            Valid until {formatDateTime(quote.expires_at)}
            {validExpiry && (
              <>
                {' '}
                <span class="quote-countdown">({formatRemaining(remaining)} left)</span>
              </>
            )}
          </>
        )}
      </p>
      <p class="visually-hidden" role="status" aria-live="polite">
        {expired ? 'This quote has expired.' : ''}
      </p>
      <h3 class="subheading">Cancellation policy</h3>
      <p id="quote-cancellation-policy" class="quote-policy">
        {quote.cancellation_policy || 'No cancellation policy was given with this quote.'}
      </p>
      {quote.ready_guarantee && (
        <>
          <h3 class="subheading">Ready guarantee</h3>
          <p id="quote-ready-guarantee" class="quote-policy">
            {quote.ready_guarantee}
          </p>
        </>
      )}
      <ReserveArea quote={quote} expired={expired} onTryWindow={onTryWindow} images={images} />
      <p class="hint">
        Quote <code id="quote-id">{quote.id}</code>
      </p>
    </section>
  );
}

