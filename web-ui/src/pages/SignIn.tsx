import { useEffect, useRef } from 'preact/hooks';
import type { VersionInfo } from '../api';
import { providerAuthHref, providerLabel, PROVIDERS, safeReturnTo } from '../auth';
import { Link } from '../router';
import { useSession } from '../session';

/** The user-facing message for `/signin?error=<code>&…`. */
export function signInErrorMessage(params: URLSearchParams): string | null {
  const code = params.get('error');
  if (!code) {
    return null;
  }
  const provider = providerLabel(params.get('provider')) || 'that provider';
  switch (code) {
    case 'state_mismatch':
      return 'The sign-in link expired or was opened in another browser. Please try again.';
    case 'provider_error':
      return 'The sign-in provider refused the request or could not be reached. Please try again.';
    case 'access_denied':
      return 'Sign-in was cancelled at the provider. You can try again whenever you like.';
    case 'email_in_use': {
      const email = params.get('email') || 'this email address';
      const existing = providerLabel(params.get('existing')) || 'another provider';
      return (
        `An account already uses ${email} (it signs in with ${existing}). ` +
        `Sign in with ${existing} first, then link ${provider} from your Account page.`
      );
    }
    case 'identity_in_use':
      return `This ${provider} identity already belongs to another account.`;
    case 'provider_already_linked':
      return `Your account already has a ${provider} sign-in linked; an account links one per provider.`;
    case 'account_suspended': {
      const reason = params.get('reason');
      return `This account is suspended${reason ? ` (${reason})` : ''}: signing in is refused until an operator lifts the suspension.`;
    }
    case 'rate_limited':
      return 'Too many sign-in attempts; wait a minute.';
    default:
      return 'Sign-in did not complete. Please try again.';
  }
}

export function SignInPage({ version }: { version: VersionInfo | null }) {
  const { me } = useSession();
  const params = new URLSearchParams(window.location.search);
  const returnTo = safeReturnTo(params.get('return_to'));
  const error = signInErrorMessage(params);
  const errorRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Arriving here after a failed sign-in: put the reason first.
    errorRef.current?.focus();
  }, [error]);

  return (
    <>
      <h1>Sign in</h1>
      <p class="lead">
        Renters sign in with a GitHub or Google account — there is no separate password. Signing in for the first time
        creates your account.
      </p>
      {error && (
        <div id="signin-error" class="alert alert--error" role="alert" tabIndex={-1} ref={errorRef}>
          <p>{error}</p>
        </div>
      )}
      {me && (
        <p id="signin-current" class="notice">
          You are signed in as <strong>{me.display_name}</strong>. Signing in with another provider links it to this
          account. <Link href="/account">Go to your account</Link>.
        </p>
      )}
      <ul class="provider-buttons">
        {PROVIDERS.map((provider) => (
          <li key={provider.id}>
            <a
              id={`signin-${provider.id}`}
              class={`btn btn--large btn--provider btn--${provider.id}`}
              href={providerAuthHref(provider.id, returnTo)}
            >
              Continue with {provider.label}
            </a>
          </li>
        ))}
      </ul>
      {version?.mode === 'sandbox' && (
        <p id="signin-sandbox-note" class="note">
          In sandbox mode you choose a test identity on the next page.
        </p>
      )}
    </>
  );
}
