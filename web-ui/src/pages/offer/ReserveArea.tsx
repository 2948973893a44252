import { useEffect, useState } from 'preact/hooks';
import { signInPageHref } from '../../auth';
import { useFocusOnNext } from '../../hooks';
import type { OfferImage, Quote } from '../../offers';
import { useSavedCard } from '../../payments';
import { handleSessionEnded } from '../../reservations';
import { Link, useSearch } from '../../router';
import { useSession } from '../../session';
import { ReserveForm } from './ReserveForm';
import { useReserve } from './useReserve';

export interface ReserveAreaProps {
  quote: Quote;
  expired: boolean;
  onTryWindow: (window: { start: string; end: string }) => void;
  /** The offer's image templates on its host, for the image picker. */
  images?: OfferImage[];
}

/** "Reserve" under the quote: it opens the form to hold the GPUs, or leads to signing in first. */
export function ReserveArea({ quote, expired, onTryWindow, images }: ReserveAreaProps) {
  const { me, loading } = useSession();
  // Re-render when the query string changes so the sign-in link returns to this exact URL.
  useSearch();
  const [open, setOpen] = useState(false);
  const reserve = useReserve(quote, me);
  // The saved card is looked up once the form opens (signed in only).
  const saved = useSavedCard(open && Boolean(me));
  /** Set when the form opens from "Reserve": the SSH key field then takes focus. */
  const focusOnOpen = useFocusOnNext(open, reserve.keyRef);

  useEffect(() => {
    if (saved.error) {
      // Without the card only checkout is offered; an ended session signs out.
      handleSessionEnded(saved.error);
    }
  }, [saved.error]);

  if (expired) {
    return (
      <>
        <button id="reserve" type="button" class="btn btn--primary btn--large" disabled aria-describedby="reserve-note">
          Reserve
        </button>
        <p id="reserve-note" class="hint">
          This quote has expired. Get a new quote to reserve.
        </p>
      </>
    );
  }

  if (!me) {
    if (loading) {
      return (
        <>
          <button
            id="reserve"
            type="button"
            class="btn btn--primary btn--large"
            aria-disabled="true"
            aria-describedby="reserve-note"
          >
            Reserve
          </button>
          <p id="reserve-note" class="hint">
            Checking whether you are signed in…
          </p>
        </>
      );
    }
    return (
      <>
        <Link
          id="reserve"
          class="btn btn--primary btn--large"
          href={signInPageHref(`${window.location.pathname}${window.location.search}`)}
          aria-describedby="reserve-note"
        >
          Sign in to reserve
        </Link>
        <p id="reserve-note" class="hint">
          You come back to this quote after signing in.
        </p>
      </>
    );
  }

  const toggle = () => {
    if (!open) {
      focusOnOpen.current = true;
    }
    setOpen(!open);
  };

  return (
    <>
      <button
        id="reserve"
        type="button"
        class="btn btn--primary btn--large"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls="reserve-form"
        aria-describedby="reserve-note"
        onClick={toggle}
      >
        Reserve
      </button>
      <p id="reserve-note" class="hint">
        Holds the GPUs for you while payment opens.
      </p>
      {open && (
        <ReserveForm
          quote={quote}
          card={saved.card}
          lookingForCard={saved.loading}
          reserve={reserve}
          onTryWindow={onTryWindow}
          images={images}
        />
      )}
    </>
  );
}
