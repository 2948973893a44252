import { formatMoney } from '../../format';
import { MAX_HOURS, MIN_HOURS, type OfferDetail } from '../../offers';

/**
 * The smallest card payment, in minor units: the gateway refuses a booking whose total is below
 * it (payments.Payments.MINIMUM_CHARGE, Stripe's minimum for USD and most currencies).
 */
export const MINIMUM_CHARGE = 50;

/**
 * The shortest whole number of hours whose total reaches the minimum charge on `gpus` GPUs.
 * The offer gives its all-in price per GPU-hour rounded to a minor unit, and the gateway rounds
 * the fee and the tax of each total once; allowing one minor unit per hour and one per total
 * for that keeps the answer on the safe side: never a length the gateway would refuse.
 */
export function minimumHours(offer: OfferDetail, gpus: number): number {
  const perHour = offer.all_in_per_gpu_hour.amount * Math.max(gpus, 1) - 1;
  if (perHour <= 0) {
    return MAX_HOURS;
  }
  const hours = Math.ceil((MINIMUM_CHARGE + 1) / perHour);
  return Math.min(Math.max(hours, MIN_HOURS), MAX_HOURS);
}

/** The hint beside the hours field: the range, and the minimum charge when it needs more than one hour. */
export function hoursHint(offer: OfferDetail, gpus: number): string {
  const range = `${MIN_HOURS} to ${MAX_HOURS}.`;
  const least = minimumHours(offer, gpus);
  const minimum = formatMoney(MINIMUM_CHARGE, offer.all_in_per_gpu_hour.currency);
  return least > MIN_HOURS
    ? `${range} Card payments start at ${minimum}: at least ${least} hours on ${gpus === 1 ? '1 GPU' : `${gpus} GPUs`} at this price.`
    : `${range} Card payments start at ${minimum}.`;
}
