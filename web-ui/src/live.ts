/**
 * Live reservation changes from `GET /api/v1/events` (Server-Sent Events, `event: reservation`,
 * data `{"reservation_id": "rsv_…", "status": "…"}`). One EventSource is shared by every
 * subscriber and closed when the last one leaves. The browser reconnects on its own after a
 * dropped connection; if the stream is refused, subscribers fall back to polling.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

export const EVENTS_URL = '/api/v1/events';

export interface ReservationChange {
  reservation_id: string;
  status: string;
}

type ChangeListener = (change: ReservationChange) => void;
type ConnectionListener = (connected: boolean) => void;

const changeListeners = new Set<ChangeListener>();
const connectionListeners = new Set<ConnectionListener>();
let source: EventSource | null = null;
let connected = false;
let unloadHooked = false;

function setConnected(next: boolean): void {
  if (connected !== next) {
    connected = next;
    for (const listener of connectionListeners) {
      listener(connected);
    }
  }
}

function close(): void {
  source?.close();
  source = null;
  setConnected(false);
}

function open(): void {
  if (source || typeof EventSource === 'undefined') {
    return;
  }
  if (!unloadHooked) {
    unloadHooked = true;
    // Leaving the page would abort the open stream; close it first so nothing is reported as failed.
    window.addEventListener('pagehide', close);
  }
  const opened = new EventSource(EVENTS_URL);
  source = opened;
  opened.onopen = () => setConnected(true);
  opened.onerror = () => {
    setConnected(false);
    if (opened.readyState === EventSource.CLOSED && source === opened) {
      // Refused (e.g. signed out): no automatic retry; pages keep polling instead.
      source = null;
    }
  };
  opened.addEventListener('reservation', (event: MessageEvent) => {
    let change: unknown;
    try {
      change = JSON.parse(String(event.data));
    } catch {
      return;
    }
    const { reservation_id: id, status } = (change ?? {}) as Partial<ReservationChange>;
    if (typeof id === 'string' && typeof status === 'string') {
      for (const listener of changeListeners) {
        listener({ reservation_id: id, status });
      }
    }
  });
}

function subscribe(onChange: ChangeListener, onConnection: ConnectionListener): () => void {
  changeListeners.add(onChange);
  connectionListeners.add(onConnection);
  open();
  onConnection(connected);
  return () => {
    changeListeners.delete(onChange);
    connectionListeners.delete(onConnection);
    if (changeListeners.size === 0) {
      close();
    }
  };
}

/**
 * Calls `onChange` for every change to one of your reservations while `enabled`.
 * Returns whether the stream is connected (so callers can poll less, or not at all).
 */
export function useReservationChanges(enabled: boolean, onChange: ChangeListener): boolean {
  const [isConnected, setIsConnected] = useState(false);
  const latest = useRef(onChange);
  latest.current = onChange;

  useEffect(() => {
    if (!enabled) {
      setIsConnected(false);
      return;
    }
    return subscribe((change) => latest.current(change), setIsConnected);
  }, [enabled]);

  return isConnected;
}
