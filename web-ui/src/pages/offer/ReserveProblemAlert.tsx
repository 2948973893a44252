import type { Ref } from 'preact';
import { formatDateTime } from '../../format';
import { formatCount, gpusLabel, offerHref, type Quote } from '../../offers';
import { ProblemAlert } from '../../problem';
import { Link } from '../../router';
import { conflictFreeText, type ReserveProblem } from './reserve-problem';

interface ReserveProblemAlertProps {
  quote: Quote;
  problem: ReserveProblem;
  alertRef: Ref<HTMLDivElement>;
  onTryWindow: (window: { start: string; end: string }) => void;
}

/** Why the hold failed, with what to do next: another window (409), checkout (402), or retrying. */
export function ReserveProblemAlert({ quote, problem, alertRef, onTryWindow }: ReserveProblemAlertProps) {
  const conflict = problem.conflict;
  const freeText = conflict ? conflictFreeText(conflict.gpusFree) : null;
  const next = conflict?.nextFreeWindow ?? null;
  return (
    <ProblemAlert
      alertRef={alertRef}
      problem={{
        message: problem.message,
        fields: problem.others,
        checkoutUrl: problem.declined?.checkoutUrl ?? null,
        status: problem.status,
        declineCode: problem.declined?.declineCode ?? null,
      }}
    >
      {conflict && (
        <>
          {freeText && <p id="reserve-gpus-free">{freeText}</p>}
          {next ? (
            <p id="reserve-next-window">
              Next free window for {gpusLabel(quote.gpu_count)} × {formatCount(quote.hours)} h:{' '}
              {formatDateTime(next.start)} to {formatDateTime(next.end)}.{' '}
              <Link
                id="reserve-try-next-window"
                href={offerHref(quote.offer_id, { start: next.start, hours: quote.hours, gpus: quote.gpu_count })}
                onClick={(event) => {
                  const newTab = event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey;
                  if (!newTab && !event.altKey) {
                    onTryWindow(next);
                  }
                }}
              >
                Try the next free window
              </Link>
            </p>
          ) : (
            <p id="reserve-next-window">
              No later window of {formatCount(quote.hours)} h has {gpusLabel(quote.gpu_count)} free. Try fewer GPUs or
              hours.
            </p>
          )}
        </>
      )}
      {problem.declined && (
        <p id="reserve-declined-note">
          {problem.declined.checkoutUrl
            ? 'Your card was not charged; the GPUs stay held while you pay at checkout.'
            : 'Your card was not charged and the GPUs were released. Try again to pay at checkout, or save another card on your account page.'}
        </p>
      )}
      {problem.retryable && <p>Press the button again to retry; it cannot book twice.</p>}
    </ProblemAlert>
  );
}
