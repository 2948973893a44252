import { useEffect, useRef, useState } from 'preact/hooks';
import { useIdempotentSubmit } from '../../idempotent-submit';
import type { Quote } from '../../offers';
import { navigate } from '../../router';
import {
  createReservation,
  rememberedSshKey,
  rememberSshKey,
  reservationHref,
  type PaymentChoice,
  type Reservation,
  type ReservationRequest,
} from '../../reservations';
import type { Me } from '../../session';
import { imageRequest, type ImageChoice } from './ImagePicker';
import { keyProblem, reserveProblemFrom, sshKeyMistake, type ReserveProblem } from './reserve-problem';

/**
 * Holding the quoted GPUs: the SSH key (remembered in this browser), the last problem, and the
 * submit, which is safe to press again after a lost answer. A new quote starts afresh.
 */
export function useReserve(quote: Quote, me: Me | null) {
  const [sshKey, setSshKey] = useState(() => rememberedSshKey());
  const [problem, setProblem] = useState<ReserveProblem | null>(null);
  const [image, setImage] = useState<ImageChoice | null>(null);
  const { busy, submit, reset } = useIdempotentSubmit<Reservation>();
  const keyRef = useRef<HTMLTextAreaElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  /** The payment of the button that submitted the form. */
  const chosenPayment = useRef<PaymentChoice>('checkout');

  useEffect(() => {
    setProblem(null);
    reset();
  }, [quote.id]);

  const fail = (next: ReserveProblem) => {
    setProblem(next);
    // Keyboard users land where the fix is: the key field, else the message (with its links).
    window.setTimeout(() => {
      if (next.keyError) {
        keyRef.current?.focus();
      } else {
        alertRef.current?.focus();
      }
    }, 0);
  };

  /** Holds the GPUs and pays with `payment` (checkout unless a saved card is given). */
  const reserve = async (payment: PaymentChoice) => {
    if (busy || !me) {
      return;
    }
    const key = sshKey.trim();
    const mistake = sshKeyMistake(key);
    if (mistake) {
      fail(keyProblem(mistake));
      return;
    }
    const chosen = imageRequest(image);
    if (chosen === null) {
      fail({ ...keyProblem(''), message: 'Ports to publish are whole numbers, e.g. 8888 or 8888, 6006.', keyError: null });
      return;
    }
    const request: ReservationRequest = { quote_id: quote.id, ssh_public_key: key, payment, ...chosen };
    setProblem(null);
    await submit({
      body: request,
      send: (idempotencyKey) => createReservation(me, request, idempotencyKey),
      onDone: (reservation) => {
        rememberSshKey(key);
        if (!reservation || typeof reservation.id !== 'string') {
          throw new Error('Unexpected response for the new reservation.');
        }
        navigate(reservationHref(reservation.id));
      },
      onError: (caught) => fail(reserveProblemFrom(caught)),
    });
  };

  return { sshKey, setSshKey, problem, busy, reserve, keyRef, alertRef, chosenPayment, image, setImage };
}
