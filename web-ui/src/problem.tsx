/**
 * The alert that shows a failed request: the problem's `detail`, its field `errors`, and,
 * for a declined card (402), the link to pay at checkout instead when the gateway gives one.
 */
import type { ComponentChildren, Ref } from 'preact';
import { ApiError } from './api';
import { errorText, fieldProblems } from './offers';
import { paymentDeclined, safeCheckoutUrl } from './payments';
import './problem.css';

export interface ShownProblem {
  message: string;
  /** One line per invalid field (`errors[].detail`). */
  fields: string[];
  /** A 402's `checkout_url`: pay in the browser instead. */
  checkoutUrl: string | null;
  /** The HTTP status, 0 when the gateway was not reached. */
  status: number;
  /** A 402's `decline_code`, if any. */
  declineCode: string | null;
}

/** What to show for a failed request; `prefix` names the action ("Could not cancel: …"). */
export function problemFrom(error: unknown, fallback: string, prefix?: string): ShownProblem {
  const declined = paymentDeclined(error);
  const status = error instanceof ApiError ? error.status : 0;
  const detail =
    status === 0
      ? `Could not reach the gateway: ${errorText(error, fallback)}. Check your connection and try again.`
      : errorText(error, fallback);
  const problem = error instanceof ApiError ? error.problem : undefined;
  return {
    message: prefix ? `${prefix}: ${detail}` : detail,
    fields: fieldProblems(error).map((field) => field.detail),
    checkoutUrl: declined?.checkoutUrl ?? safeCheckoutUrl(problem?.checkout_url),
    status,
    declineCode: declined?.declineCode ?? null,
  };
}

export interface ProblemAlertProps {
  problem: ShownProblem;
  /** `problem` unless the page already has one. */
  id?: string;
  alertRef?: Ref<HTMLDivElement>;
  /** Extra advice under the message. */
  children?: ComponentChildren;
}

export function ProblemAlert({ problem, id = 'problem', alertRef, children }: ProblemAlertProps) {
  return (
    <div
      id={id}
      class="alert alert--error problem"
      role="alert"
      tabIndex={-1}
      ref={alertRef}
      data-status={problem.status || undefined}
    >
      <p class="problem__detail">{problem.message}</p>
      {problem.fields.length > 0 && (
        <ul class="field-errors problem__fields">
          {problem.fields.map((detail, index) => (
            <li key={index}>{detail}</li>
          ))}
        </ul>
      )}
      {problem.checkoutUrl && (
        <p>
          <a id={`${id}-checkout`} class="btn btn--primary" href={problem.checkoutUrl}>
            Pay at checkout instead
          </a>
        </p>
      )}
      {children}
    </div>
  );
}
