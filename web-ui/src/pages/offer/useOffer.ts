import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { errorText, getOffer, isAbort, type OfferDetail } from '../../offers';
import type { ChosenWindow } from './chosen-window';
import type { ChosenWorkload } from '../../workloads';

export interface LoadError {
  status: number;
  message: string;
}

/**
 * The offer, priced for the chosen window: re-read when the window changes, while the last one
 * stays shown (`loading`), and on `reload()`.
 */
export function useOffer(id: string, chosen: ChosenWindow, workload: ChosenWorkload | null = null) {
  const [offer, setOffer] = useState<OfferDetail | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<LoadError | null>(null);
  const [reloadKey, setReloadKey] = useState(0);

  const workloadKey = workload ? JSON.stringify(workload) : '';

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    getOffer(id, { start: chosen.start || undefined, hours: chosen.hours ?? undefined }, controller.signal, workload)
      .then((detail) => {
        if (!detail || typeof detail !== 'object' || typeof detail.id !== 'string') {
          throw new Error('Unexpected response for this offer.');
        }
        setOffer(detail);
        setError(null);
        setLoading(false);
      })
      .catch((caught) => {
        if (isAbort(caught)) {
          return;
        }
        setError({
          status: caught instanceof ApiError ? caught.status : 0,
          message: errorText(caught, 'Could not load this offer.'),
        });
        setLoading(false);
      });
    return () => controller.abort();
  }, [id, chosen.start, chosen.hours, workloadKey, reloadKey]);

  const reload = () => setReloadKey((key) => key + 1);
  return { offer, loading, error, reload };
}
