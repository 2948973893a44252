import { isValidInstant, parseHours } from '../../offers';
import { navigate } from '../../router';

/** The offer window chosen in the URL: `?start=…&hours=…&gpus=…&quote=…`. */
export interface ChosenWindow {
  /** RFC 3339, or '' for "now". */
  start: string;
  hours: number | null;
  gpus: number | null;
  /** The id of the quote shown for this window, or ''. */
  quote: string;
}

export function windowFromSearch(search: string): ChosenWindow {
  const params = new URLSearchParams(search);
  const start = params.get('start') ?? '';
  const gpus = Number(params.get('gpus'));
  return {
    start: isValidInstant(start) ? start : '',
    hours: parseHours(params.get('hours')),
    gpus: Number.isInteger(gpus) && gpus > 0 ? gpus : null,
    quote: params.get('quote') ?? '',
  };
}

/** Replaces some query parameters of the current URL (no new history entry). */
export function replaceParams(changes: Record<string, string | null>): void {
  const params = new URLSearchParams(window.location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === '') {
      params.delete(name);
    } else {
      params.set(name, value);
    }
  }
  const qs = params.toString();
  navigate(`${window.location.pathname}${qs ? `?${qs}` : ''}`, { replace: true });
}
