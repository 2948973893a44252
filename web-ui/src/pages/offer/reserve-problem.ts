import { ApiError } from '../../api';
import { errorText, fieldProblems, gpusLabel } from '../../offers';
import { paymentDeclined, type PaymentDeclined } from '../../payments';
import { looksLikePrivateKey, reservationConflict, type ReservationConflict } from '../../reservations';

/** Why holding the GPUs failed, as the reserve form shows it. */
export interface ReserveProblem {
  message: string;
  /** Problems with the SSH key field (`#/ssh_public_key`). */
  keyError: string | null;
  /** Other field problems (e.g. `#/quote_id`). */
  others: string[];
  conflict: ReservationConflict | null;
  /** A network failure: retrying reuses the Idempotency-Key, so it cannot book twice. */
  retryable: boolean;
  /** HTTP status of the answer, 0 when none came. */
  status: number;
  /** A saved-card charge was refused (402). */
  declined: PaymentDeclined | null;
}

/** What is wrong with a pasted SSH public key before it is sent, or null. */
export function sshKeyMistake(key: string): string | null {
  if (!key) {
    return 'Paste your SSH public key, e.g. the contents of ~/.ssh/id_ed25519.pub.';
  }
  if (looksLikePrivateKey(key)) {
    return 'This is a private key: never share it. Paste the public key (the .pub file) instead.';
  }
  if (/[\r\n]/.test(key)) {
    return 'Paste one public key, on a single line.';
  }
  return null;
}

export function keyProblem(keyError: string): ReserveProblem {
  return {
    message: 'Please correct the SSH public key.',
    keyError,
    others: [],
    conflict: null,
    retryable: false,
    status: 0,
    declined: null,
  };
}

/** A failed `POST /reservations` (not an ended session). */
export function reserveProblemFrom(caught: unknown): ReserveProblem {
  const answered = caught instanceof ApiError;
  const fields = fieldProblems(caught);
  const keyError = fields.filter((field) => field.field === 'ssh_public_key').map((field) => field.detail).join(' ');
  const others = fields.filter((field) => field.field !== 'ssh_public_key').map((field) => field.detail);
  let message: string;
  if (!answered) {
    message = `Could not reach the gateway: ${errorText(caught, 'request failed')}. Check your connection and try again; trying again cannot book twice.`;
  } else if (caught.status === 410) {
    message = 'This quote has expired. Get a new quote above to reserve.';
  } else if (caught.status === 403) {
    message = `The reservation was refused: ${caught.message} Reload the page and try again.`;
  } else {
    message = caught.message;
  }
  return {
    message,
    keyError: keyError || null,
    others,
    conflict: reservationConflict(caught),
    retryable: !answered || caught.status >= 500,
    status: answered ? caught.status : 0,
    declined: paymentDeclined(caught),
  };
}

export function conflictFreeText(free: number | null): string | null {
  if (free === null) {
    return null;
  }
  if (free === 0) {
    return 'No GPUs are still free for this window.';
  }
  return `${gpusLabel(free)} ${free === 1 ? 'is' : 'are'} still free for this window.`;
}
