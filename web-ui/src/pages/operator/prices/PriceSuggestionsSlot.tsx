/**
 * Where break-even and target-margin price suggestions for an offer go (the economics endpoint,
 * built separately). Mount them here; until then it renders nothing, so the Prices page works
 * without them.
 */
export interface PriceSuggestionsSlotProps {
  offerId: string;
  gpuModel?: string;
  siteId?: string;
}

export function PriceSuggestionsSlot(_props: PriceSuggestionsSlotProps) {
  return null;
}
