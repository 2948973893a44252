/**
 * Pages for a signed-in account: while the session loads they say so; signed out they offer
 * "Sign in" (and "Try again" when the session could not be read); signed in they show `children`.
 */
import type { ComponentChildren } from 'preact';
import { signInPageHref } from './auth';
import { Link } from './router';
import { useSession, type Me } from './session';

export interface SignedInPageProps {
  /** The page's heading while signed out or loading. */
  title: string;
  /** Shown above the heading (e.g. a breadcrumb). */
  before?: ComponentChildren;
  /** The status line while the session loads. */
  loadingText: string;
  /** What signing in shows. */
  signInText: string;
  /** Where signing in returns to. */
  returnTo: string;
  /** Ids `{idPrefix}-signed-out` and `{idPrefix}-signin`. */
  idPrefix: string;
  /** Id of the alert when the session could not be read; `{idPrefix}-session-error` unless given. */
  errorId?: string;
  children: (me: Me) => ComponentChildren;
}

export function SignedInPage({ title, before, loadingText, signInText, returnTo, idPrefix, errorId, children }: SignedInPageProps) {
  const session = useSession();

  if (session.loading && !session.me) {
    return (
      <>
        {before}
        <h1>{title}</h1>
        <p class="muted" role="status">
          {loadingText}
        </p>
      </>
    );
  }

  if (!session.me) {
    return (
      <>
        {before}
        <h1>{title}</h1>
        {session.error && (
          <div id={errorId ?? `${idPrefix}-session-error`} class="alert alert--error" role="alert">
            <p>Could not load your account: {session.error}</p>
            <button type="button" class="btn" onClick={() => void session.refresh()}>
              Try again
            </button>
          </div>
        )}
        <div id={`${idPrefix}-signed-out`} class="panel">
          <p>{signInText}</p>
          <Link id={`${idPrefix}-signin`} class="btn btn--primary" href={signInPageHref(returnTo)}>
            Sign in
          </Link>
        </div>
      </>
    );
  }

  return <>{children(session.me)}</>;
}
