/**
 * Break-even and target-margin price suggestions for an offer, next to its price on the Prices
 * page (from the economics feature's `GET /api/v1/operator/price-suggestions`, one request for
 * the whole page); the Economics page has the full figures and a target margin to choose.
 */
import { OfferPriceSuggestion } from '../economics/PriceSuggestions';

export interface PriceSuggestionsSlotProps {
  offerId: string;
  gpuModel?: string;
  siteId?: string;
}

export function PriceSuggestionsSlot({ offerId }: PriceSuggestionsSlotProps) {
  return offerId ? <OfferPriceSuggestion offerId={offerId} /> : null;
}
