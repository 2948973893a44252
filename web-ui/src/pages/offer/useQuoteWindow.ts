import { useEffect, useRef, useState } from 'preact/hooks';
import { localInputToUtc, parseHours, toUtcIso, utcToLocalInput, type OfferDetail } from '../../offers';
import { replaceParams, type ChosenWindow } from './chosen-window';
import { minimumHours } from './minimum-charge';

/**
 * The window the quote form edits (GPU count, start in the viewer's zone, hours), kept in step
 * with the URL: a window chosen elsewhere (a link, back/forward) shows up in the form, and a
 * committed change re-prices the offer above through the URL.
 */
export function useQuoteWindow(offer: OfferDetail, chosen: ChosenWindow) {
  const counts = (offer.gpu_counts ?? []).filter((count) => count <= offer.gpus_available);
  const [gpuCount, setGpuCount] = useState(() => {
    const preferred = [chosen.gpus, offer.window?.gpu_count].find((count) => count && counts.includes(count));
    return String(preferred ?? counts[0] ?? '');
  });
  const [startLocal, setStartLocal] = useState(() => utcToLocalInput(chosen.start || offer.window?.start));
  const [startTouched, setStartTouched] = useState(false);
  // Unless the link chose a length, start at one a card can pay: 1 hour of a cheap GPU is
  // below the minimum charge, and a newcomer's first booking would be refused.
  const [hours, setHours] = useState(() =>
    String(chosen.hours ?? Math.max(offer.window?.hours ?? 1, minimumHours(offer, Number(gpuCount) || 1))),
  );
  /** The GPU count the link asked for (applied once the offer allows it). */
  const initialGpus = useRef(chosen.gpus);
  const pendingGpus = useRef<number | null>(null);

  // A raised default length re-prices the offer above for it, so both show the same window.
  useEffect(() => {
    if (chosen.hours === null && parseHours(hours) !== (offer.window?.hours ?? 1)) {
      replaceParams({ hours });
    }
  }, []);

  // The allowed counts follow the window's availability.
  useEffect(() => {
    if (counts.length === 0) {
      setGpuCount('');
    } else if (!counts.includes(Number(gpuCount))) {
      setGpuCount(String(counts[nearestIndex(counts, Number(gpuCount) || (counts[0] ?? 1))]));
    }
  }, [counts.join(',')]);

  // A window chosen outside the form (a link, back/forward): show it in the form.
  useEffect(() => {
    if (chosen.start && localInputToUtc(startLocal) !== chosen.start) {
      setStartLocal(utcToLocalInput(chosen.start));
      // Quote exactly that instant (the input only holds minutes) until the visitor edits it.
      setStartTouched(false);
    }
    if (chosen.hours !== null && parseHours(hours) !== chosen.hours) {
      setHours(String(chosen.hours));
    }
    if (chosen.gpus !== null && chosen.gpus !== initialGpus.current) {
      pendingGpus.current = chosen.gpus;
    }
  }, [chosen.start, chosen.hours, chosen.gpus]);

  // ...and its GPU count, once the re-priced offer allows it.
  useEffect(() => {
    const wanted = pendingGpus.current;
    if (wanted !== null && counts.includes(wanted)) {
      pendingGpus.current = null;
      initialGpus.current = wanted;
      setGpuCount(String(wanted));
    }
  }, [chosen.gpus, counts.join(',')]);

  // Changing the window re-prices the offer above (and its free GPU count).
  const reprice = (nextStartLocal: string, nextHours: string, touched: boolean) => {
    const parsedHours = parseHours(nextHours);
    const start = touched ? localInputToUtc(nextStartLocal) : chosen.start;
    if (parsedHours === null || (touched && !start)) {
      return;
    }
    replaceParams({ start: start || null, hours: String(parsedHours) });
  };

  const editStart = (value: string) => {
    setStartLocal(value);
    setStartTouched(true);
  };

  return {
    /** The GPU counts bookable together in this window. */
    counts,
    gpuCount,
    setGpuCount,
    startLocal,
    editStart,
    commitStart: (value: string) => {
      editStart(value);
      reprice(value, hours, true);
    },
    hours,
    setHours,
    commitHours: (value: string) => reprice(startLocal, value, startTouched),
    /**
     * The start to send: the one picked here or in the link, else "now" at the moment of asking
     * (the offer's own window start may be minutes old by then, and the API refuses past starts).
     */
    startInstant: (): string | null => (startTouched ? localInputToUtc(startLocal) : chosen.start || toUtcIso(new Date())),
  };
}

function nearestIndex(counts: number[], wanted: number): number {
  // The largest allowed count not above the wanted one, else the smallest.
  let best = 0;
  counts.forEach((count, index) => {
    if (count <= wanted) {
      best = index;
    }
  });
  return best;
}
