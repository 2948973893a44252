/**
 * Break-even and target-margin price suggestions for an offer, next to its price on the Prices
 * page (from the economics feature's `GET /api/v1/operator/price-suggestions`).
 */
import { PriceSuggestions } from '../economics/PriceSuggestions';

export interface PriceSuggestionsSlotProps {
  offerId: string;
  gpuModel?: string;
  siteId?: string;
}

export function PriceSuggestionsSlot({ offerId }: PriceSuggestionsSlotProps) {
  return offerId ? <PriceSuggestions offerId={offerId} /> : null;
}
