import { useEffect } from 'preact/hooks';
import { formatApproxIn, formatCountdown, formatLongCountdown, useNow } from '../../clock';
import { formatDateTime } from '../../format';
import { formatCount } from '../../offers';

/** Calls `onOver` once when the countdown reaches zero. */
function useOver(over: boolean, onOver: () => void): void {
  useEffect(() => {
    if (over) {
      onOver();
    }
  }, [over]);
}

/**
 * The time left on the hold. The ticking text is hidden from screen readers;
 * a polite summary changes at most once a minute.
 */
export function HoldCountdown({ expiresAt, onOver }: { expiresAt: string; onOver: () => void }) {
  const at = new Date(expiresAt).getTime();
  const valid = !Number.isNaN(at);
  const now = useNow(valid && at > Date.now());
  const remaining = valid ? at - now : 0;
  const over = valid && remaining <= 0;
  useOver(over, onOver);

  if (!valid) {
    return null;
  }
  const minutes = Math.ceil(remaining / 60000);
  const summary = over
    ? 'Hold expired.'
    : minutes <= 1
      ? 'Less than a minute left on the hold.'
      : `About ${formatCount(minutes)} minutes left on the hold.`;

  return (
    <>
      <p class="hold-countdown-line">
        Held until <time dateTime={expiresAt}>{formatDateTime(expiresAt)}</time>:{' '}
        <strong id="hold-countdown" class={`hold-countdown${over ? ' hold-countdown--over' : ''}`} aria-hidden="true">
          {over ? 'Hold expired' : `${formatCountdown(remaining)} left`}
        </strong>
      </p>
      <p id="hold-countdown-summary" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {summary}
      </p>
    </>
  );
}

interface TimeUntilProps {
  /** Element id of the ticking text. */
  id: string;
  at: string;
  /** "Starts", "Ends" */
  label: string;
  /** "until the start", "left" */
  what: string;
  onOver: () => void;
}

/** "Ends 3 Dec, 14:00 UTC: 2 h 04 min 09 s left", ticking; screen readers get a coarse summary. */
export function TimeUntil({ id, at, label, what, onOver }: TimeUntilProps) {
  const time = new Date(at).getTime();
  const valid = !Number.isNaN(time);
  const now = useNow(valid && time > Date.now());
  const remaining = valid ? time - now : 0;
  const over = valid && remaining <= 0;
  useOver(over, onOver);

  if (!valid) {
    return null;
  }
  return (
    <>
      <p class="countdown-line">
        {label} <time dateTime={at}>{formatDateTime(at)}</time>:{' '}
        <strong id={id} class="countdown" aria-hidden="true" data-remaining-ms={Math.max(0, remaining)}>
          {over ? 'now' : `${formatLongCountdown(remaining)} ${what}`}
        </strong>
      </p>
      <p id={`${id}-summary`} class="visually-hidden">
        {over ? `${label} now.` : `${label} ${formatApproxIn(remaining)}.`}
      </p>
    </>
  );
}

