import { useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import { useMounted } from './hooks';
import { handleSessionEnded, newIdempotencyKey } from './reservations';

export interface IdempotentSend<T> {
  /** The request body: the same body is sent again under the same Idempotency-Key. */
  body: unknown;
  send: (idempotencyKey: string) => Promise<T>;
  /** With the answer; runs even after the form unmounted (what was booked must still be shown). */
  onDone: (answer: T) => void | Promise<void>;
  /** A failure (not an ended session), while the form is still mounted. */
  onError: (error: unknown) => void;
}

/**
 * A submit that is safe to retry: while the answer is unknown (no answer, or a 5xx), pressing
 * again resends the same body under the same Idempotency-Key, so it cannot act twice; a changed
 * body or a definite answer starts afresh with a new key. An ended session (401) signs out.
 */
export function useIdempotentSubmit<T>() {
  const [busy, setBusy] = useState(false);
  const mounted = useMounted();
  /** The Idempotency-Key of the last attempt and the body it was sent with. */
  const attempt = useRef<{ key: string; body: string } | null>(null);

  const submit = async ({ body, send, onDone, onError }: IdempotentSend<T>): Promise<void> => {
    const json = JSON.stringify(body);
    if (!attempt.current || attempt.current.body !== json) {
      attempt.current = { key: newIdempotencyKey(), body: json };
    }
    setBusy(true);
    try {
      const answer = await send(attempt.current.key);
      attempt.current = null;
      await onDone(answer);
    } catch (caught) {
      if (!mounted.current) {
        return;
      }
      if (caught instanceof ApiError && caught.status < 500) {
        // A definite answer: the next attempt is a new request with a new key.
        attempt.current = null;
      }
      if (handleSessionEnded(caught)) {
        return;
      }
      onError(caught);
    } finally {
      if (mounted.current) {
        setBusy(false);
      }
    }
  };

  /** Forgets the last attempt (e.g. for a new quote): the next submit gets a new key. */
  const reset = () => {
    attempt.current = null;
  };

  return { busy, submit, reset, mounted };
}
