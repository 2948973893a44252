import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { errorText, getQuote, isAbort, type Quote } from '../../offers';
import { replaceParams } from './chosen-window';

/**
 * The quote shown for the offer, kept in step with `?quote=…`: one in the URL (a reload, a
 * shared link) is shown again while still valid; one that leaves the URL is no longer shown.
 * `notice` says why an earlier quote could not be shown (or another note for the form).
 */
export function useShownQuote(offerId: string, quoteInUrl: string) {
  const [quote, setQuote] = useState<Quote | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    if (!quoteInUrl || quote?.id === quoteInUrl) {
      return;
    }
    const controller = new AbortController();
    getQuote(quoteInUrl, controller.signal)
      .then((loaded) => {
        if (loaded && loaded.offer_id === offerId) {
          setQuote(loaded);
          setNotice(null);
        } else {
          replaceParams({ quote: null });
        }
      })
      .catch((caught) => {
        if (isAbort(caught)) {
          return;
        }
        const status = caught instanceof ApiError ? caught.status : 0;
        setNotice(
          status === 410
            ? 'Your earlier quote has expired. Get a new quote below.'
            : status === 404
              ? 'Your earlier quote was not found. Get a new quote below.'
              : `Could not load your earlier quote: ${errorText(caught, 'request failed')}`,
        );
        if (status === 404 || status === 410) {
          replaceParams({ quote: null });
        }
      });
    return () => controller.abort();
  }, [quoteInUrl]);

  // The quote left the URL (a link to another window, back/forward): it no longer applies.
  useEffect(() => {
    if (!quoteInUrl && quote) {
      setQuote(null);
    }
  }, [quoteInUrl]);

  return { quote, setQuote, notice, setNotice };
}
