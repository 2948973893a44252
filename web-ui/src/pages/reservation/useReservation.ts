import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { useReservationChanges } from '../../live';
import { errorText, isAbort } from '../../offers';
import { FINAL_STATUSES, getReservation, handleSessionEnded, statusLabel, type Reservation } from '../../reservations';

/** While a hold awaits payment, the page re-reads the reservation this often. */
const POLL_MS = 5000;
/** Other live states: without the event stream, and as a safety net with it. */
const POLL_OFFLINE_MS = 15000;
const POLL_ONLINE_MS = 60000;

/** Parts of the page that go away when the status changes; focus must not vanish with them. */
const TRANSIENT = '#hold, #status-panel, #cancel-section, #extend';

export interface LoadError {
  status: number;
  message: string;
}

/**
 * The reservation, kept current: read once, then re-read on every live change (any node), by
 * polling (fast while a hold awaits payment) and when the tab becomes visible again. A status
 * change is announced, and focus moves to `headingRef` if it was in a part that went away.
 */
export function useReservation(id: string) {
  const [reservation, setReservation] = useState<Reservation | null>(null);
  const [loadError, setLoadError] = useState<LoadError | null>(null);
  const [refreshError, setRefreshError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [reloadKey, setReloadKey] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const lastStatus = useRef<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      inFlight.current?.abort();
    };
  }, []);

  /** Shows a newer state of the reservation (from a read, or an action's answer). */
  const apply = useCallback((next: Reservation) => {
    if (lastStatus.current !== null && lastStatus.current !== next.status) {
      setAnnouncement(`Status changed to ${statusLabel(next.status)}.`);
      if (document.activeElement?.closest(TRANSIENT)) {
        window.setTimeout(() => {
          if (!document.activeElement || document.activeElement === document.body) {
            headingRef.current?.focus();
          }
        }, 0);
      }
    }
    lastStatus.current = next.status;
    setReservation(next);
  }, []);

  /** Reads the reservation; `quiet` (polling, live updates) keeps the page as it is when that fails. */
  const load = useCallback(
    async (quiet: boolean) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      try {
        const next = await getReservation(id, controller.signal);
        if (!next || typeof next !== 'object' || typeof next.id !== 'string') {
          throw new Error('Unexpected response for this reservation.');
        }
        if (!mounted.current) {
          return;
        }
        apply(next);
        setLoadError(null);
        setRefreshError(null);
      } catch (caught) {
        if (isAbort(caught) || !mounted.current || handleSessionEnded(caught)) {
          return;
        }
        const status = caught instanceof ApiError ? caught.status : 0;
        const message = errorText(caught, 'Could not load this reservation.');
        if (quiet && status !== 404) {
          setRefreshError(message);
        } else {
          setLoadError({ status, message });
        }
      } finally {
        if (inFlight.current === controller) {
          inFlight.current = null;
        }
      }
    },
    [id, apply],
  );

  useEffect(() => {
    void load(false);
  }, [load, reloadKey]);

  const refreshQuietly = useCallback(() => {
    void load(true);
  }, [load]);

  const status = reservation?.status ?? null;
  const notFound = loadError?.status === 404;
  const final = status !== null && FINAL_STATUSES.includes(status);
  const watching = reservation !== null && !final && !notFound;

  // Live: every change to this reservation, made on any node, re-reads it.
  const connected = useReservationChanges(watching, (change) => {
    if (change.reservation_id === id) {
      void load(true);
    }
  });

  // Polling: fast while a hold awaits payment, slow as a safety net otherwise.
  const pollMs = !watching
    ? 0
    : status === 'pending_payment'
      ? POLL_MS
      : connected
        ? POLL_ONLINE_MS
        : POLL_OFFLINE_MS;
  useEffect(() => {
    if (pollMs === 0) {
      return;
    }
    const timer = window.setInterval(() => {
      if (!document.hidden && !inFlight.current) {
        void load(true);
      }
    }, pollMs);
    const onVisible = () => {
      if (!document.hidden) {
        void load(true);
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [pollMs, load]);

  /** A countdown reached zero: the server moves the status shortly; read it now. */
  const onTimeReached = useCallback(() => {
    if (!inFlight.current) {
      void load(true);
    }
  }, [load]);

  return {
    reservation,
    loadError,
    notFound,
    refreshError,
    apply,
    refreshQuietly,
    /** After a failed first read: read again, showing the outcome. */
    retry: () => setReloadKey((key) => key + 1),
    onTimeReached,
    announcement,
    announce: setAnnouncement,
    headingRef,
  };
}
