import { AvailabilityStrip, PriceHistory } from '../../charts';
import { formatCount, formatGb, formatPercent, money, type OfferDetail } from '../../offers';
import type { ChosenWindow } from './chosen-window';
import { Hardware, Images, PriceBreakdown, References } from './OfferFacts';
import { UptimeFigures } from './UptimeFigures';
import { QuoteSection } from './QuoteSection';
import { ReadyTime } from './ReadyTime';

interface OfferDetailsProps {
  offer: OfferDetail;
  updating: boolean;
  updateError: string | null;
  onRetry: () => void;
  chosen: ChosenWindow;
}

export function OfferDetails({ offer, updating, updateError, onRetry, chosen }: OfferDetailsProps) {
  const hyperscaler = offer.savings?.vs_hyperscaler_percent;
  return (
    <>
      <p class="lead offer-lead">
        {offer.architecture} · {formatGb(offer.vram_gb)} per GPU · {offer.site}, {offer.region} ({offer.country}) · host{' '}
        {offer.host_name}
      </p>
      <div id="offer-summary" class="offer-summary" data-offer-id={offer.id}>
        <p class="offer-summary__price">
          <span id="offer-price" class="offer-summary__amount">
            {money(offer.all_in_per_gpu_hour)}
          </span>{' '}
          <span class="offer-summary__unit">per GPU-hour, all-in</span>
        </p>
        <p class="offer-summary__free">
          {formatCount(offer.gpus_available)} of {formatCount(offer.gpus_total)} GPUs free for this window
          {offer.bookable ? '' : ' — not bookable'}
        </p>
        {typeof hyperscaler === 'number' && hyperscaler > 0 && (
          <p class="savings-badge">Save {formatPercent(hyperscaler)} vs hyperscaler</p>
        )}
      </div>
      {updateError && (
        <div id="offer-update-error" class="alert alert--error" role="alert">
          <p>Could not update the prices for the chosen window: {updateError}</p>
          <button type="button" class="btn" onClick={onRetry}>
            Try again
          </button>
        </div>
      )}
      <div class="offer-layout">
        <div class="offer-layout__main">
          <Hardware offer={offer} />
          <Images offer={offer} />
          <UptimeFigures offer={offer} />
          <PriceBreakdown offer={offer} updating={updating} />
          <ReadyTime figure={offer.time_to_ready} />
          <References offer={offer} />
        </div>
        <aside class="offer-layout__aside" aria-label="Get a quote">
          <QuoteSection offer={offer} chosen={chosen} />
        </aside>
      </div>
      <section class="section" aria-labelledby="availability-heading">
        <h2 id="availability-heading">Availability, next 14 days</h2>
        <AvailabilityStrip availability={offer.availability} total={offer.gpus_total} />
      </section>
      <section class="section" aria-labelledby="price-history-heading">
        <h2 id="price-history-heading">Price history</h2>
        <PriceHistory history={offer.price_history} />
      </section>
    </>
  );
}

